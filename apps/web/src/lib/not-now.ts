/**
 * "Not now" on an offer (notifications, installing the app) holds for a
 * week on this device: the offer is not made again before then.
 */
export const NOT_NOW_MS = 7 * 24 * 60 * 60 * 1000;

export type Offer = "push" | "install";

const key = (offer: Offer) => `quad.notNow.${offer}`;

/** Whether the student said "not now" to this offer within the last week. */
export function saidNotNow(offer: Offer, now = Date.now()): boolean {
  try {
    const at = Number(localStorage.getItem(key(offer)));
    return Number.isFinite(at) && at > 0 && now - at < NOT_NOW_MS;
  } catch {
    return false;
  }
}

export function rememberNotNow(offer: Offer, now = Date.now()): void {
  try {
    localStorage.setItem(key(offer), String(now));
  } catch {
    // Storage refused (private mode): the offer may come again, which is harmless.
  }
}
