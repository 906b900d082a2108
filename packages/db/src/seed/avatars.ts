import type { Gender } from "@quad/contracts";
import type { MediaSink } from "./media";
import { createRandom } from "./random";

/** Photos are 3:4 like processed uploads. */
export const AVATAR_WIDTH = 900;
export const AVATAR_HEIGHT = 1200;
/** Distinct images shared by all demo students: rendering is the slow part of seeding. */
export const AVATAR_POOL_SIZE = 40;

export interface AvatarKeys {
  gender: Gender;
  photoKey: string;
}

const SKIN = ["#f5d0b5", "#eab894", "#d39a6f", "#b07a4f", "#8d5a3b", "#5e3b26"];
const HAIR = ["#2b1b12", "#4a2f1d", "#7a4a26", "#b9874b", "#d9b26f", "#1c1c1c", "#8e3b2d"];

export const avatarKeys = (n: number) => ({
  photoKey: `demo/avatar-${n}.jpg`,
});

/** Even pool numbers are drawn with long hair, odd with short hair; demo students use their gender's half. */
export const avatarGender = (n: number): Gender => (n % 2 === 0 ? "female" : "male");

/** A head-and-shoulders silhouette on a soft gradient; everything derives from `n`. */
export function avatarSvg(n: number): string {
  const rnd = createRandom(`avatar-${n}`);
  const hue = rnd.int(0, 359);
  const hue2 = (hue + rnd.int(30, 90)) % 360;
  const skin = rnd.pick(SKIN);
  const hair = rnd.pick(HAIR);
  const shirt = `hsl(${(hue + 180) % 360},45%,${rnd.int(30, 55)}%)`;
  const longHair = avatarGender(n) === "female";
  const hairBack = longHair ? `<path d="M250 560 C250 300 650 300 650 560 L680 900 L220 900 Z" fill="${hair}"/>` : "";
  // Hair caps the top of the head and leaves the forehead clear.
  const hairTop = longHair
    ? `<path d="M290 570 C266 250 634 250 610 570 C598 470 530 425 450 425 C370 425 302 470 290 570 Z" fill="${hair}"/>`
    : `<path d="M296 510 C280 262 620 262 604 510 C584 440 520 415 450 415 C380 415 316 440 296 510 Z" fill="${hair}"/>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_WIDTH}" height="${AVATAR_HEIGHT}" viewBox="0 0 900 1200">`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0.4" y2="1">`,
    `<stop offset="0" stop-color="hsl(${hue},70%,82%)"/><stop offset="1" stop-color="hsl(${hue2},60%,62%)"/>`,
    `</linearGradient></defs>`,
    `<rect width="900" height="1200" fill="url(#bg)"/>`,
    hairBack,
    `<path d="M120 1200 C130 940 300 860 450 860 C600 860 770 940 780 1200 Z" fill="${shirt}"/>`,
    `<rect x="395" y="700" width="110" height="190" rx="50" fill="${skin}"/>`,
    `<ellipse cx="450" cy="540" rx="150" ry="185" fill="${skin}"/>`,
    hairTop,
    `</svg>`,
  ].join("");
}

interface RenderedAvatar {
  n: number;
  photo: Uint8Array;
}

// Rendering is deterministic, so one process renders each pool once.
const rendered = new Map<number, Promise<RenderedAvatar[]>>();

async function renderPool(size: number): Promise<RenderedAvatar[]> {
  // Imported lazily: seeding reference data alone (production start) never loads sharp.
  const { default: sharp } = await import("sharp");
  const renderOne = async (n: number): Promise<RenderedAvatar> => {
    const photo = await sharp(Buffer.from(avatarSvg(n)))
      .jpeg({ quality: 82 })
      .toBuffer();
    return { n, photo: new Uint8Array(photo) };
  };
  return Promise.all(Array.from({ length: size }, (_, n) => renderOne(n)));
}

/** Renders (once per process) and stores the shared avatar pool; answers its keys by index. */
export async function putAvatarPool(media: MediaSink, size = AVATAR_POOL_SIZE): Promise<AvatarKeys[]> {
  let pool = rendered.get(size);
  if (!pool) {
    pool = renderPool(size);
    rendered.set(size, pool);
    pool.catch(() => rendered.delete(size));
  }
  const avatars = await pool;
  await Promise.all(avatars.map(({ n, photo }) => media.put(avatarKeys(n).photoKey, photo, "image/jpeg")));
  return avatars.map(({ n }) => ({ gender: avatarGender(n), ...avatarKeys(n) }));
}
