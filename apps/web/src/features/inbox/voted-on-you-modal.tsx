import { SCREEN_TEXT, TOASTS, type VoteCard } from "@quad/contracts";
import { useEffect, useState } from "react";
import { Button, Icon, Modal, Spinner } from "../../components";
import { useProfilePart } from "../users/use-profile";
import { BoostDialog, unlockCountLabel } from "../payments";
import { ArrivalNote } from "./arrival-note";
import { EMPTY_INBOX_HOW, EMPTY_INBOX_MEANWHILE, VOTES_ARRIVE_WITHIN_THE_HOUR } from "./texts";
import { useMarkInboxOpened } from "./use-new-votes";
import { useReceivedVotes } from "./use-received-votes";
import { VoteCardTile } from "./vote-card";
import { VoteDetailDialog } from "./vote-detail-dialog";
import styles from "./voted-on-you-modal.module.css";

export interface VotedOnYouModalProps {
  onClose: () => void;
}

/**
 * "Voted on you" (docs/product.md): the received votes as a grid of cards, "Load
 * More" for the next page, a refresh that starts again at page 1, the vote
 * detail with its unlock flow, and "Boost".
 */
export function VotedOnYouModal({ onClose }: VotedOnYouModalProps) {
  const received = useReceivedVotes();
  const credits = useProfilePart((me) => me.remainingUnlocks) ?? 0;
  const [selected, setSelected] = useState<VoteCard | null>(null);
  const [boostOpen, setBoostOpen] = useState(false);
  // Relative times are measured from when the list was opened or refreshed.
  const [now, setNow] = useState(() => Date.now());
  // Opening the list is seeing what is new: the server starts the count again (for every device).
  // Closing it too: a vote that arrived while it was open was shown in it, so it is not new afterwards.
  const markOpened = useMarkInboxOpened();
  useEffect(() => {
    markOpened();
    return markOpened;
  }, [markOpened]);

  // The open card follows the list, so an unlock shows up in the detail at once.
  const detail = selected ? (received.votes.find((card) => card.id === selected.id) ?? selected) : null;
  const refreshing = received.isRefetching && !received.isFetchingNextPage;

  const close = () => {
    received.reset();
    onClose();
  };

  return (
    <>
      <Modal
        open
        onClose={close}
        size="lg"
        title={SCREEN_TEXT.votedOnYou}
        description="Unlock a vote to see who sent it: their name, photo, class year, emojis and Instagram handle."
        footer={
          <Button variant="secondary" block icon={<Icon name="rocket" size={20} />} onClick={() => setBoostOpen(true)}>
            Boost
          </Button>
        }
      >
        <div className={styles.toolbar}>
          <span className={styles.credits}>
            <Icon name="unlock" size={16} />
            {unlockCountLabel(credits)} left
          </span>
          <Button
            variant="ghost"
            className={styles.refresh}
            icon={refreshing ? <Spinner size="sm" tone="current" label={null} /> : <Icon name="refresh" size={18} />}
            onClick={() => {
              setNow(Date.now());
              markOpened();
              void received.refresh();
            }}
            disabled={received.isFetching}
          >
            Refresh
          </Button>
        </div>

        {received.isPending ? (
          <div className={styles.state} role="status">
            <Spinner label={null} />
            <p>{SCREEN_TEXT.loadingVotes}</p>
          </div>
        ) : received.votes.length === 0 ? (
          received.isError ? (
            <div className={styles.state} role="alert">
              <span className={styles.stateIcon} aria-hidden="true">
                <Icon name="alert" size={28} />
              </span>
              <p className={styles.stateTitle}>{TOASTS.loadVotesFailed}</p>
              <Button variant="secondary" onClick={() => void received.refresh()}>
                Try again
              </Button>
            </div>
          ) : (
            <div className={styles.state}>
              <span className={styles.stateIcon} aria-hidden="true">
                <Icon name="heart" size={28} />
              </span>
              <p className={styles.stateTitle}>{SCREEN_TEXT.noVotesTitle}</p>
              <p className={styles.stateBody}>{SCREEN_TEXT.noVotesBody}</p>
              <p className={styles.stateBody}>{EMPTY_INBOX_HOW}</p>
              <p className={styles.stateBody}>{VOTES_ARRIVE_WITHIN_THE_HOUR}</p>
              <p className={styles.stateBody}>{EMPTY_INBOX_MEANWHILE}</p>
              <Button variant="primary" onClick={close}>
                Back to voting
              </Button>
            </div>
          )
        ) : (
          <>
            <ArrivalNote />
            <ul className={styles.grid} aria-label="Votes you received" aria-busy={received.isFetching || undefined}>
              {received.votes.map((card) => (
                <VoteCardTile key={card.id} card={card} now={now} onView={() => setSelected(card)} />
              ))}
            </ul>
            {received.hasNextPage && (
              <div className={styles.more}>
                <Button
                  variant="secondary"
                  loading={received.isFetchingNextPage}
                  disabled={received.isFetching && !received.isFetchingNextPage}
                  onClick={() => void received.fetchNextPage()}
                >
                  Load More
                </Button>
              </div>
            )}
          </>
        )}
      </Modal>
      {detail && <VoteDetailDialog card={detail} onClose={() => setSelected(null)} />}
      <BoostDialog open={boostOpen} onClose={() => setBoostOpen(false)} />
    </>
  );
}
