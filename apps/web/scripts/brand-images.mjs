#!/usr/bin/env node
// Draws the images that pages shared in chats and home screens show, from the
// logo's vector, into dist/ at build time (nothing is downloaded or committed
// as a binary): the home-screen icon for iOS, the web app manifest's icons
// (plain and maskable) and the 1200×630 share card.
//
//   node scripts/brand-images.mjs
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const logo = readFileSync(fileURLToPath(new URL("../public/favicon.svg", import.meta.url)), "utf8");
const inner = logo.replace(/^<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");

// iOS rounds the corners itself: a full square, the logo's mark on the brand gradient.
const touchIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="180" height="180">${inner.replace('rx="16"', 'rx="0"')}</svg>`;

// The share card: the gradient, the logo, and two blank "cards" side by side, as a round shows them.
const card = (x, tilt) =>
  `<g transform="rotate(${tilt} ${x + 150} 330)"><rect x="${x}" y="150" width="300" height="380" rx="36" fill="white" fill-opacity="0.92"/>` +
  `<circle cx="${x + 150}" cy="290" r="70" fill="#ede9fe"/><rect x="${x + 60}" y="400" width="180" height="28" rx="14" fill="#c4b5fd"/>` +
  `<rect x="${x + 90}" y="448" width="120" height="20" rx="10" fill="#ddd6fe"/></g>`;
const shareCard = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset=".55" stop-color="#db2777"/><stop offset="1" stop-color="#f97316"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <svg x="90" y="215" width="200" height="200" viewBox="0 0 64 64">${inner.replace(/fill="url\(#g\)"/, 'fill="white" fill-opacity="0.18"')}</svg>
  ${card(430, -4)}${card(790, 4)}
</svg>`;

// Maskable: launchers crop to their own shape, so the mark stays inside the central 80% safe zone.
const maskableIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="512" height="512">${inner
  .replace('rx="16"', 'rx="0"')
  .replace(
    /<circle[^>]*\/>.*$/,
    (mark) => `<g transform="translate(32 32) scale(0.72) translate(-32 -32)">${mark}</g>`,
  )}</svg>`;
const squareIcon = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="${size}" height="${size}">${inner}</svg>`;

mkdirSync(`${dist}icons`, { recursive: true });
await sharp(Buffer.from(touchIcon)).png().toFile(`${dist}apple-touch-icon.png`);
await sharp(Buffer.from(squareIcon(192)))
  .png()
  .toFile(`${dist}icons/icon-192.png`);
await sharp(Buffer.from(squareIcon(512)))
  .png()
  .toFile(`${dist}icons/icon-512.png`);
await sharp(Buffer.from(maskableIcon)).png().toFile(`${dist}icons/icon-maskable-512.png`);
await sharp(Buffer.from(shareCard)).png().toFile(`${dist}og-image.png`);
console.log("brand images: apple-touch-icon.png (180×180), icons/ (192, 512, maskable 512), og-image.png (1200×630)");
