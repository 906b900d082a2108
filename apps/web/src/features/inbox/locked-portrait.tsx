import type { CSSProperties } from "react";
import styles from "./locked-portrait.module.css";

/** A hue from 0 to 359 out of any text (FNV-1a): the same card keeps its colours across renders. */
export function hueOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % 360;
}

/**
 * Stands in for a locked voter's photo: a soft, blurred figure drawn here.
 * Its colours come from the vote's id, which the card already carries, so a
 * grid of cards is not uniform; nothing about the voter is behind it (the
 * server sends none: docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md).
 */
export function LockedPortrait({ voteId }: { voteId: string }) {
  const hue = hueOf(voteId);
  return (
    <div
      className={styles.portrait}
      style={{ "--hue": hue } as CSSProperties}
      aria-hidden="true"
      data-locked-portrait=""
    >
      <svg className={styles.figure} viewBox="0 0 30 40" preserveAspectRatio="xMidYMax slice">
        <ellipse cx="15" cy="16" rx="6" ry="7.5" />
        <path d="M3 40 C3.5 30 9 27 15 27 C21 27 26.5 30 27 40 Z" />
      </svg>
    </div>
  );
}
