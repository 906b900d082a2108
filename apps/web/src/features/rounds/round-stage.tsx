import { useEffect, useId, useRef, type ReactNode } from "react";
import type { CandidateOption, Round } from "@quad/contracts";
import { CandidateCard, CandidateCardSkeleton } from "./candidate-card";
import { Icon } from "../../components/icon";
import styles from "./round-stage.module.css";

export interface RoundStageProps {
  /** The round to show; null while one loads (skeletons hold the layout). */
  round: Round | null;
  /** A short label above the prompt ("Preview round"). */
  eyebrow?: ReactNode;
  /** The round is being replaced: cards dim and ignore taps. */
  busy?: boolean;
  /** Id of the candidate whose vote is in flight. */
  votingFor?: string | null;
  /** Id of the candidate who just got the vote. */
  chosenId?: string | null;
  onVote: (candidate: CandidateOption) => void;
  onUnlockInstagram?: (candidate: CandidateOption) => void;
  /** The card's ⋯ button (block, report); signed-in rounds only. */
  onMore?: (candidate: CandidateOption) => void;
}

function roundKey(round: Round | null): string | null {
  return round ? `${round.prompt.id}:${round.users[0].id}:${round.users[1].id}` : null;
}

/**
 * A round: the prompt, then the two students side by side. Shared by the
 * landing preview and the home screen, and free of the data layer so the
 * first page can use it.
 */
export function RoundStage({
  round,
  eyebrow,
  busy = false,
  votingFor = null,
  chosenId = null,
  onVote,
  onUnlockInstagram,
  onMore,
}: RoundStageProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const key = roundKey(round);
  const previousKey = useRef(key);

  // When a vote or skip replaces the round, the button that had focus is
  // gone: keyboard and screen-reader users continue from the new prompt.
  useEffect(() => {
    const before = previousKey.current;
    previousKey.current = key;
    if (!key || !before || before === key) return;
    const active = document.activeElement;
    const stage = headingRef.current?.closest("section");
    if (!active || active === document.body || stage?.contains(active)) headingRef.current?.focus();
  }, [key]);

  const interactive = !busy && votingFor === null && chosenId === null;

  return (
    <section className={styles.stage} aria-labelledby={headingId} aria-busy={round === null || busy}>
      <div className={styles.layout}>
        <div className={styles.promptCard}>
          <p className={styles.eyebrow}>
            <Icon name="sparkle" size={14} />
            {eyebrow ?? "Pick one"}
          </p>
          {round ? (
            <h2 key={key} id={headingId} ref={headingRef} tabIndex={-1} className={styles.prompt}>
              {round.prompt.prompt}
            </h2>
          ) : (
            <h2 id={headingId} className={styles.prompt}>
              <span className="visually-hidden">Loading the next round</span>
              <span className={styles.promptBone} aria-hidden="true" />
              <span className={`${styles.promptBone} ${styles.promptBoneShort}`} aria-hidden="true" />
            </h2>
          )}
        </div>

        <div className={`${styles.grid} ${busy ? styles.busy : ""}`}>
          {round
            ? round.users.map((candidate, index) => (
                <CandidateCard
                  key={`${key}:${candidate.id}`}
                  candidate={candidate}
                  index={index}
                  onVote={onVote}
                  onUnlockInstagram={onUnlockInstagram}
                  onMore={onMore}
                  voting={votingFor === candidate.id}
                  chosen={chosenId === candidate.id}
                  passed={chosenId !== null && chosenId !== candidate.id}
                  disabled={!interactive}
                />
              ))
            : [0, 1].map((index) => <CandidateCardSkeleton key={index} />)}
        </div>
      </div>
    </section>
  );
}
