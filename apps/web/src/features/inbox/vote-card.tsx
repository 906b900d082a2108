import { LOCKED_NAME_PLACEHOLDER, type VoteCard } from "@quad/contracts";
import { useId } from "react";
import { Button, Icon } from "../../components";
import { hourAgo } from "../../lib/time-ago";
import { LockedPortrait } from "./locked-portrait";
import styles from "./vote-card.module.css";

/** "’27": the short class year printed on a revealed card. */
export function shortClassYear(year: number): string {
  return `’${String(year % 100).padStart(2, "0")}`;
}

export function voterName(card: VoteCard): string {
  return card.isUnlocked ? card.name : LOCKED_NAME_PLACEHOLDER;
}

export interface VoteCardTileProps {
  card: VoteCard;
  now: number;
  onView: () => void;
}

/** One received vote in the grid: a drawn placeholder (or the revealed photo), the name or its placeholder, the prompt, "View". */
export function VoteCardTile({ card, now, onView }: VoteCardTileProps) {
  const nameId = useId();
  const promptId = useId();
  return (
    <li className={`${styles.card} ${card.isUnlocked ? styles.unlocked : styles.locked}`}>
      <div className={styles.photoFrame}>
        {card.isUnlocked ? (
          <img className={styles.photo} src={card.photo} alt="" loading="lazy" decoding="async" />
        ) : (
          <LockedPortrait voteId={card.id} />
        )}
        {/* Every card, revealed or not, carries only the hour it arrived in. */}
        <span className={styles.when}>{hourAgo(card.createdAt, now)}</span>
        {!card.isUnlocked && (
          <span className={styles.lock} aria-hidden="true">
            <Icon name="lock" size={18} />
          </span>
        )}
      </div>
      <div className={styles.body}>
        <p id={nameId} className={styles.name}>
          {voterName(card)}
          {card.isUnlocked && card.graduationYear !== null && (
            <span className={styles.year}> {shortClassYear(card.graduationYear)}</span>
          )}
          {!card.isUnlocked && <span className="visually-hidden"> (locked)</span>}
        </p>
        <p id={promptId} className={styles.prompt}>
          {card.prompt}
        </p>
        <Button
          variant={card.isUnlocked ? "secondary" : "primary"}
          block
          onClick={onView}
          aria-describedby={`${nameId} ${promptId}`}
        >
          View
        </Button>
      </div>
    </li>
  );
}
