import { useRef } from "react";
import { SCREEN_TEXT } from "@quad/contracts";
import { buttonClassName, Modal } from "../../components";
import styles from "./allowance-modals.module.css";
import { Icon } from "../../components/icon";
import { TimeLeft } from "./time-left-badge";

// The footers use a plain <button> styled as the primary Button: focus starts
// on it (initialFocusRef), and the design-system Button takes no ref.

export interface OutOfVotesModalProps {
  /** When votes come back (ISO time); the modal is open while this is set. */
  availableAt: string | null;
  onClose: () => void;
}

/** After the 12th vote: "Come back in one hour for more votes!" and the time left. */
export function OutOfVotesModal({ availableAt, onClose }: OutOfVotesModalProps) {
  const ok = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={availableAt !== null}
      onClose={onClose}
      title={SCREEN_TEXT.outOfVotesTitle}
      description={SCREEN_TEXT.outOfVotesBody}
      size="sm"
      initialFocusRef={ok}
      footer={
        <button ref={ok} type="button" className={buttonClassName({ block: true })} onClick={onClose}>
          Got it
        </button>
      }
    >
      <div className={styles.art} aria-hidden="true">
        <Icon name="clock" size={34} />
      </div>
      {availableAt && <TimeLeft key={availableAt} availableAt={availableAt} />}
    </Modal>
  );
}

export interface OutOfSkipsModalProps {
  open: boolean;
  onClose: () => void;
}

/** Skip pressed with none left: "Submit a vote to get more skips!" */
export function OutOfSkipsModal({ open, onClose }: OutOfSkipsModalProps) {
  const ok = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={SCREEN_TEXT.outOfSkipsTitle}
      description={SCREEN_TEXT.outOfSkipsBody}
      size="sm"
      initialFocusRef={ok}
      footer={
        <button ref={ok} type="button" className={buttonClassName({ block: true })} onClick={onClose}>
          Back to voting
        </button>
      }
    >
      <div className={styles.art} aria-hidden="true">
        <Icon name="skip" size={32} />
      </div>
    </Modal>
  );
}
