import sharp from "sharp";

/** A photo-like JPEG carrying EXIF with GPS coordinates, as phones write them. */
export function jpegWithGps(width = 600, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 60 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone", Model: "Quad Cam" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "37/1 25/1 1900/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "122/1 5/1 0/1",
      },
    })
    .toBuffer();
}

export function png(width = 300, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();
}

export function webp(width = 300, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 20, b: 200 } } })
    .webp()
    .toBuffer();
}

/** Small on disk, huge once decoded: 7000×7000 pixels (49 MP) of one colour. */
export function decompressionBomb(): Promise<Buffer> {
  return sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Builds a multipart/form-data body by hand, so tests control every byte and header. */
export function multipartBody(
  fields: Record<string, string | string[]>,
  file?: { field?: string; name: string; type: string; data: Buffer },
) {
  const boundary = `----quad${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
    }
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "profileImage"}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

type Rgb = readonly [number, number, number];
const css = ([r, g, b]: Rgb) => `rgb(${r},${g},${b})`;

/** A 600×800 photo-like JPEG: a head-and-shoulders figure on a two-colour gradient, distinct per colour pair. */
export function portraitJpeg(top: Rgb, bottom: Rgb, figure: Rgb): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <defs><linearGradient id="g" x2="0.3" y2="1"><stop offset="0" stop-color="${css(top)}"/><stop offset="1" stop-color="${css(bottom)}"/></linearGradient></defs>
    <rect width="600" height="800" fill="url(#g)"/>
    <ellipse cx="300" cy="330" rx="120" ry="150" fill="${css(figure)}"/>
    <path d="M70 800 C80 600 200 540 300 540 C400 540 520 600 530 800 Z" fill="${css(figure)}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}
