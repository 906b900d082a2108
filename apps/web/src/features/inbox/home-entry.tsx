import { SCREEN_TEXT } from "@quad/contracts";
import { useState } from "react";
import { Button, Icon, type ButtonSize, type ButtonVariant } from "../../components";
import { UnlockPackagesDialog } from "../payments";
import { meanwhileLabel, newVotesLabel } from "./texts";
import { useNewVotes } from "./use-new-votes";
import { VotedOnYouModal } from "./voted-on-you-modal";
import styles from "./home-entry.module.css";

export { BoostStatus } from "./boost-status";

/** How the home page may dress the entry buttons; every prop is optional. */
export interface EntryButtonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  className?: string;
}

export interface VotedOnYouButtonProps extends EntryButtonProps {
  /** Show the modal without a tap (a vote notification was opened); onClosed says when it is put away. */
  openFromNotice?: boolean;
  onClosed?: () => void;
}

/** "See who voted for you" with the votes new since the inbox was last opened: opens the "Voted on you" modal. */
export function VotedOnYouButton({
  variant = "secondary",
  openFromNotice = false,
  onClosed,
  ...look
}: VotedOnYouButtonProps) {
  const [open, setOpen] = useState(false);
  const newVotes = useNewVotes();
  const close = () => {
    setOpen(false);
    onClosed?.();
  };
  return (
    <>
      <Button
        {...look}
        variant={variant}
        className={styles.entry}
        icon={<Icon name="heart" size={20} />}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {SCREEN_TEXT.seeWhoVotedForYou}
        {newVotes > 0 && (
          <span className={styles.newBadge}>
            <span className="visually-hidden">, </span>
            {newVotesLabel(newVotes)}
          </span>
        )}
      </Button>
      {(open || openFromNotice) && <VotedOnYouModal onClose={close} />}
    </>
  );
}

/**
 * Out of votes: how many votes arrived meanwhile (the same count as the entry's
 * badge). With any, it is a way into the inbox, since that is what the student wants next.
 */
export function NewVotesMeanwhile() {
  const newVotes = useNewVotes();
  const [open, setOpen] = useState(false);
  return (
    <>
      {newVotes > 0 ? (
        <Button
          variant="secondary"
          block
          className={styles.meanwhileButton}
          icon={<Icon name="heart" size={20} />}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        >
          {meanwhileLabel(newVotes)}
        </Button>
      ) : (
        <p className={styles.meanwhile}>{meanwhileLabel(newVotes)}</p>
      )}
      {/* Outside the condition: opening the inbox sets the count to 0, and the list must stay open. */}
      {open && <VotedOnYouModal onClose={() => setOpen(false)} />}
    </>
  );
}

/** "Buy Unlocks": opens the unlock packages dialog. */
export function BuyUnlocksButton({ variant = "ghost", ...look }: EntryButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        {...look}
        variant={variant}
        icon={<Icon name="unlock" size={20} />}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Buy Unlocks
      </Button>
      <UnlockPackagesDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
