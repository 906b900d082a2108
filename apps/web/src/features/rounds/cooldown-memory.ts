/**
 * When this student's votes come back, as the server last said ("Out of
 * Votes" until then). Remembered on the device so that opening Quad during
 * the cooldown, on a slow network, shows "Out of Votes" at once instead of a
 * round skeleton that flips to it. Only a hint for what to draw while the
 * server is asked: its answer replaces it either way.
 */
const storageKey = (userId: string) => `quad.out-of-votes.${userId}`;

export function rememberCooldown(userId: string, availableAt: string | null): void {
  try {
    if (availableAt) window.localStorage.setItem(storageKey(userId), availableAt);
    else window.localStorage.removeItem(storageKey(userId));
  } catch {
    // Storage unavailable (privacy modes): the skeleton shows while loading, as before.
  }
}

/** The remembered end of the cooldown, if it is still ahead. */
export function rememberedCooldown(userId: string, now = Date.now()): string | null {
  try {
    const availableAt = window.localStorage.getItem(storageKey(userId));
    return availableAt && Date.parse(availableAt) > now ? availableAt : null;
  } catch {
    return null;
  }
}
