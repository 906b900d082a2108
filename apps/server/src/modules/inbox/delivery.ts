import { randomInt } from "node:crypto";

/**
 * When a vote reaches its recipient: a moment drawn uniformly at random
 * within the delivery window after it was cast, from a cryptographic
 * source, independently for every vote. Two votes a voter casts seconds
 * apart then arrive at unrelated moments, so a friend who unlocked one
 * cannot pick the other out of her own inbox by when it came
 * (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md has the
 * model and why uniform). Whole milliseconds: a 1 ms window delivers at once.
 */
export function deliveryMoment(castAt: Date, windowMs: number): Date {
  return new Date(castAt.getTime() + randomInt(0, Math.max(1, Math.round(windowMs))));
}
