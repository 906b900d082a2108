import type { MediaStorage } from "./storage";

/** Demo teasers were stored beside each demo avatar. */
const DEMO_TEASER = /^demo\/avatar-\d+-teaser\.jpg$/;

/**
 * Deletes the blurred teasers earlier versions rendered from each student's
 * photo for locked vote cards ("teasers/<uuid>.jpg", and the demo avatars'
 * "demo/avatar-N-teaser.jpg"). Migration 0004 drops the column that named
 * them; a SQL migration can't delete files, so this runs beside it at every
 * start: it lists two folders and, once they hold no teaser, deletes
 * nothing (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md).
 * Listing, not the dropped column, finds them, so a file a failed upload or
 * an old process left behind goes too. Answers how many it deleted.
 */
export async function removeRetiredTeasers(media: MediaStorage): Promise<number> {
  const [teasers, demo] = await Promise.all([media.list("teasers/"), media.list("demo/")]);
  const keys = [...teasers, ...demo.filter((key) => DEMO_TEASER.test(key))];
  for (const key of keys) await media.delete(key);
  return keys.length;
}
