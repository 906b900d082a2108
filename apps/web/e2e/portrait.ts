import { deflateSync } from "node:zlib";

/** A real PNG for the photo pipeline, drawn in Node so no canvas is needed. */

type Rgb = readonly [number, number, number];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 300×400 portrait PNG: a head-and-shoulders silhouette on a two-colour gradient. */
export function portraitPng(top: Rgb, bottom: Rgb): Buffer {
  const width = 300;
  const height = 400;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const t = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const head = (x - 150) ** 2 + (y - 165) ** 2 < 62 ** 2;
      const shoulders = ((x - 150) / 120) ** 2 + ((y - 400) / 150) ** 2 < 1;
      const light = head || shoulders ? 0.55 : 0;
      for (let channel = 0; channel < 3; channel++) {
        const base = top[channel]! + (bottom[channel]! - top[channel]!) * t;
        row[1 + x * 3 + channel] = Math.round(base + (255 - base) * light);
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Two gradient stops around one hue, for tests that name a student by colour. */
export function hueColors(hue: number): [Rgb, Rgb] {
  return [hslToRgb(hue, 0.7, 0.62), hslToRgb((hue + 50) % 360, 0.75, 0.48)];
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
