import { PHOTO } from "@quad/contracts";
import sharp from "sharp";
import { AppError } from "../../errors";

export type ImageType = "jpeg" | "png" | "webp" | "heic";

export const PHOTO_MESSAGES = {
  tooLarge: "Your photo must be 10 MB or smaller.",
  tooManyPixels: "That image is too large to process. Please choose a smaller photo.",
  unsupported: "Please upload a JPEG, PNG or WebP image.",
  heicUnsupported: "HEIC photos can't be processed yet. Please choose a JPEG, PNG or WebP image.",
  unreadable: "We couldn't read that image. Please choose another photo.",
} as const;

/** The type from the file's first bytes; names and headers are whatever the sender says. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return "png";
  }
  const ascii = (from: number, to: number) => Buffer.from(b.subarray(from, to)).toString("latin1");
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (
    b.length >= 12 &&
    ascii(4, 8) === "ftyp" &&
    ["heic", "heix", "hevc", "hevx", "mif1", "msf1"].includes(ascii(8, 12))
  ) {
    return "heic";
  }
  return null;
}

export interface ProcessedPhoto {
  photo: Buffer;
}

/**
 * Re-encodes a photo as a 3:4 JPEG with every piece of metadata (EXIF, GPS,
 * ICC comments) dropped — sharp writes none unless asked — after applying
 * the EXIF orientation. Nothing else is rendered from it: a locked vote card
 * shows a placeholder, since any image made from the photo (however blurred)
 * can be matched back to it.
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  if (bytes.length > PHOTO.maxBytes) throw new AppError("PAYLOAD_TOO_LARGE", PHOTO_MESSAGES.tooLarge);
  const type = detectImageType(bytes);
  if (!type) throw new AppError("UNSUPPORTED_MEDIA_TYPE", PHOTO_MESSAGES.unsupported);
  if (type === "heic" && !sharp.format.heif.input.buffer) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", PHOTO_MESSAGES.heicUnsupported);
  }
  const input = () => sharp(bytes, { limitInputPixels: PHOTO.maxPixels, failOn: "error" });
  try {
    const meta = await input().metadata();
    if ((meta.width ?? 0) * (meta.height ?? 0) > PHOTO.maxPixels) {
      throw new AppError("PAYLOAD_TOO_LARGE", PHOTO_MESSAGES.tooManyPixels);
    }
    const photo = await input()
      .rotate()
      .resize(PHOTO.outputWidth, PHOTO.outputHeight, { fit: "cover", position: "centre" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    return { photo };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) throw new AppError("PAYLOAD_TOO_LARGE", PHOTO_MESSAGES.tooManyPixels);
    if (type === "heic") throw new AppError("UNSUPPORTED_MEDIA_TYPE", PHOTO_MESSAGES.heicUnsupported);
    throw new AppError("BAD_REQUEST", PHOTO_MESSAGES.unreadable);
  }
}
