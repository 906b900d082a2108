import { useId, type ReactNode } from "react";
import { SCREEN_TEXT, SKIPS_IN_A_ROW, TOASTS, type Gender } from "@quad/contracts";
import { Button, buttonClassName, Spinner } from "../../components";
import { OutOfSkipsModal, OutOfVotesModal } from "./allowance-modals";
import styles from "./home-round.module.css";
import { Icon } from "../../components/icon";
import { useSafetyActions } from "../safety";
import { RoundMessage } from "./round-message";
import { RoundStage } from "./round-stage";
import { TimeLeft } from "./time-left-badge";
import { useVotingRound } from "./use-voting-round";

export interface HomeRoundProps {
  userId: string;
  /** The gender shown (sent with each vote, as the product's flow does). */
  preference: Gender | null;
  /** Placed beside Skip (the home page passes Buy Unlocks). */
  actions?: ReactNode;
  /** Shown with the countdown when votes run out (the home page passes what arrived meanwhile and the push offer). */
  whileOut?: ReactNode;
  /** Shown under the round once a vote went through (the home page passes its offers). */
  afterVote?: ReactNode;
  /** The countdown ended (the home page tells a hidden tab's student). */
  onVotesBack?: () => void;
}

/** The home screen's round: prompt, two cards, Skip with its counter, and the allowance modals. */
export function HomeRound({ userId, preference, actions, whileOut, afterVote, onVotesBack }: HomeRoundProps) {
  const round = useVotingRound({ userId, preference });
  const { view } = round;
  // A block or a report brings a fresh round by itself (lib/refresh-after.ts).
  const safety = useSafetyActions();
  const skipHintId = useId();
  // No skips left: Skip looks spent ("0 left") with the way out said beside it, and a tap opens "Out of Skips".
  const spent = round.skipsLeft === 0;

  return (
    <div className={styles.round}>
      {(view.kind === "loading" || view.kind === "round") && (
        <RoundStage
          round={view.kind === "round" ? view.round : null}
          busy={round.busy || round.skipping}
          votingFor={round.votingFor}
          chosenId={round.chosenId}
          onVote={(candidate) => void round.vote(candidate)}
          onMore={(candidate) => safety.open({ target: { userId: candidate.id }, name: candidate.firstName })}
        />
      )}
      {view.kind === "empty" && <RoundMessage icon="users" title={view.message} />}
      {view.kind === "out_of_votes" && (
        <RoundMessage icon="clock" title={SCREEN_TEXT.outOfVotesTitle}>
          <p>{SCREEN_TEXT.outOfVotesBody}</p>
          <div className={styles.timeLeft}>
            <TimeLeft
              key={view.availableAt}
              availableAt={view.availableAt}
              onElapsed={() => {
                onVotesBack?.();
                round.reload();
              }}
            />
          </div>
          {whileOut}
        </RoundMessage>
      )}
      {view.kind === "failed" && (
        <RoundMessage
          icon="refresh"
          role="alert"
          title={TOASTS.fetchPromptFailed}
          actions={
            <Button variant="secondary" onClick={round.reload}>
              Try again
            </Button>
          }
        />
      )}

      <div className={styles.actions}>
        {view.kind === "round" && (
          // A plain <button> styled as one: the design-system Button clips its label to one line, and the counter sits beside it.
          <button
            type="button"
            className={buttonClassName({ variant: "secondary" }, `${styles.skip} ${spent ? styles.skipSpent : ""}`)}
            disabled={round.skipping || round.votingFor !== null || round.chosenId !== null || round.busy}
            aria-busy={round.skipping || undefined}
            onClick={() => void round.skip()}
            aria-describedby={spent ? skipHintId : undefined}
          >
            {round.skipping ? <Spinner size="sm" tone="current" label={null} /> : <Icon name="skip" size={18} />}
            {/* Named by what it shows ("Skip 2 left"), so saying what one sees finds it. */}
            Skip{" "}
            <span className={styles.skipCount}>
              <span className={styles.dots} aria-hidden="true">
                {Array.from({ length: SKIPS_IN_A_ROW }, (_, index) => (
                  <span key={index} className={index < round.skipsLeft ? styles.dotOn : styles.dot} />
                ))}
              </span>
              {round.skipsLeft} left
            </span>
          </button>
        )}
        {actions && <div className={styles.extra}>{actions}</div>}
      </div>
      {view.kind === "round" && spent && (
        <p id={skipHintId} className={styles.skipHint}>
          {SCREEN_TEXT.skipHint}
        </p>
      )}

      {round.voted && view.kind === "round" && afterVote}

      <p className="visually-hidden" aria-live="polite">
        {round.announcement}
      </p>

      <OutOfVotesModal availableAt={round.outOfVotesModal} onClose={round.closeOutOfVotes} />
      <OutOfSkipsModal open={round.outOfSkipsModal} onClose={round.closeOutOfSkips} />
      {safety.dialogs}
    </div>
  );
}
