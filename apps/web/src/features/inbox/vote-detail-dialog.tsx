import type { CSSProperties } from "react";
import { SCREEN_TEXT, type VoteCard } from "@quad/contracts";
import { Button, Icon, Modal } from "../../components";
import { notify } from "../../lib/toast";
import { UNLOCK_REVEALS } from "../payments";
import { CardMoreButton, useSafetyActions } from "../safety";
import { LockedPortrait } from "./locked-portrait";
import { useUnlockFlow } from "./use-unlock-flow";
import { voterName } from "./vote-card";
import styles from "./vote-detail-dialog.module.css";

const INBOX_TEXT = { copied: "Handle copied", copyFailed: "Couldn't copy it: press and hold the handle to select it." };

export interface VoteDetailDialogProps {
  card: VoteCard;
  onClose: () => void;
}

function instagramUrl(handle: string): string {
  return `https://instagram.com/${encodeURIComponent(handle.replace(/^@/, ""))}`;
}

/**
 * The vote detail overlay (docs/product.md): photo, class year, name, "Voted on you
 * for:" and the prompt, the Instagram handle blurred until unlocked, and
 * "Unlock Details". While locked, every hidden field is a fixed placeholder:
 * the server sends nothing to hide behind the blur.
 */
export function VoteDetailDialog({ card, onClose }: VoteDetailDialogProps) {
  const flow = useUnlockFlow(card);
  // Only a revealed voter can be blocked or reported: a locked card names no one (and the server refuses it).
  const safety = useSafetyActions({ onBlocked: onClose });

  return (
    <>
      <Modal
        open
        onClose={onClose}
        size="sm"
        title={voterName(card)}
        footer={
          card.isUnlocked ? (
            <Button variant="secondary" block onClick={onClose}>
              Done
            </Button>
          ) : (
            <Button
              size="lg"
              block
              icon={<Icon name="unlock" size={20} />}
              loading={flow.unlocking}
              onClick={flow.start}
            >
              {SCREEN_TEXT.unlockDetails}
            </Button>
          )
        }
      >
        <div className={styles.layout}>
          <div className={styles.photoFrame}>
            {card.isUnlocked ? (
              <img className={styles.photo} src={card.photo} alt={`Photo of ${card.name}`} />
            ) : (
              <LockedPortrait voteId={card.id} />
            )}
            {card.isUnlocked && (
              <CardMoreButton
                name={card.name}
                onClick={() => safety.open({ target: { voteCardId: card.id }, name: card.name })}
              />
            )}
            {!card.isUnlocked && (
              <span className={styles.lockBadge}>
                <Icon name="lock" size={16} /> Locked
              </span>
            )}
            {card.isUnlocked && card.emojis.length > 0 && (
              <span className={styles.emojis} aria-label={`Emojis: ${card.emojis.join(" ")}`}>
                {card.emojis.join(" ")}
              </span>
            )}
          </div>

          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>Class of</dt>
              <dd>{card.isUnlocked ? (card.graduationYear ?? "—") : <Hidden placeholder="••••" />}</dd>
            </div>
            <div className={`${styles.fact} ${card.isUnlocked && card.instagramHandle ? styles.factWide : ""}`}>
              <dt>
                <Icon name="instagram" size={16} /> Instagram
              </dt>
              <dd>
                {card.isUnlocked ? (
                  card.instagramHandle ? (
                    <span className={styles.handleRow}>
                      <a
                        href={instagramUrl(card.instagramHandle)}
                        target="_blank"
                        rel="noopener noreferrer"
                        className={styles.handle}
                        style={{ "--chars": card.instagramHandle.length } as CSSProperties}
                      >
                        {card.instagramHandle}
                      </a>
                      <CopyButton text={card.instagramHandle} label={`Copy ${card.instagramHandle}`} />
                    </span>
                  ) : (
                    "—"
                  )
                ) : (
                  <Hidden placeholder="@••••••••" />
                )}
              </dd>
            </div>
          </dl>

          <div className={styles.prompt}>
            <p className={styles.promptLabel}>{SCREEN_TEXT.votedOnYouFor}</p>
            <p className={styles.promptText}>{card.prompt}</p>
          </div>

          {!card.isUnlocked && <p className={styles.reveals}>{UNLOCK_REVEALS}</p>}
        </div>
      </Modal>
      {flow.dialogs}
      {safety.dialogs}
    </>
  );
}

/** Copies what was paid for (a handle to paste into Instagram's search), and says so. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify.success(INBOX_TEXT.copied, { toastId: "copied" });
    } catch {
      notify.error(INBOX_TEXT.copyFailed, { toastId: "copied" });
    }
  };
  return (
    <button type="button" className={styles.copy} onClick={() => void copy()} aria-label={label} title={label}>
      <Icon name="copy" size={18} />
    </button>
  );
}

/** A blurred stand-in for a locked field, made of dots rather than an invented value; screen readers hear "Hidden until unlocked". */
function Hidden({ placeholder }: { placeholder: string }) {
  return (
    <>
      <span className={styles.blurred} aria-hidden="true">
        {placeholder}
      </span>
      <span className="visually-hidden">Hidden until unlocked</span>
    </>
  );
}
