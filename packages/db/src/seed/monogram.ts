import { hashString } from "./random";

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

/**
 * A school icon: initials on a two-tone gradient whose hues come from the
 * school's name, so every run draws the same icon. Deliberately not a logo.
 */
export function monogramSvg(name: string, letters: string): string {
  const h = hashString(name);
  const hue = h % 360;
  const hue2 = (hue + 35 + ((h >>> 9) % 50)) % 360;
  const text = escapeXml(letters.slice(0, 4));
  // Shrink the letters as they get more numerous so they always fit the tile.
  const fontSize = [0, 64, 54, 42, 34][text.length] ?? 34;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="hsl(${hue},62%,46%)"/><stop offset="1" stop-color="hsl(${hue2},68%,34%)"/>`,
    `</linearGradient></defs>`,
    `<rect width="128" height="128" rx="28" fill="url(#g)"/>`,
    `<text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" `,
    `font-weight="700" font-size="${fontSize}" fill="#fff">${text}</text>`,
    `</svg>`,
  ].join("");
}

export function monogramDataUri(name: string, letters: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(monogramSvg(name, letters), "utf8").toString("base64")}`;
}
