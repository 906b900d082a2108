import { Button, Icon, Modal, type IconName } from "../../components";
import type { SafetySubject } from "./subject";
import { SAFETY_TEXT } from "./texts";
import styles from "./safety.module.css";

export interface CardActionsSheetProps {
  subject: SafetySubject;
  onBlock: () => void;
  onReport: () => void;
  onClose: () => void;
}

/** What the ⋯ button opens: "Block <name>" and "Report <name>", each with a line on what it does. */
export function CardActionsSheet({ subject, onBlock, onReport, onClose }: CardActionsSheetProps) {
  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title={subject.name}
      footer={
        <Button variant="secondary" block onClick={onClose}>
          {SAFETY_TEXT.cancel}
        </Button>
      }
    >
      <ul className={styles.actions}>
        <li>
          <SheetAction
            icon="ban"
            tone="danger"
            label={SAFETY_TEXT.blockAction(subject.name)}
            hint={SAFETY_TEXT.blockHint}
            onClick={onBlock}
          />
        </li>
        <li>
          <SheetAction
            icon="flag"
            label={SAFETY_TEXT.reportAction(subject.name)}
            hint={SAFETY_TEXT.reportHint}
            onClick={onReport}
          />
        </li>
      </ul>
    </Modal>
  );
}

function SheetAction({
  icon,
  label,
  hint,
  tone = "neutral",
  onClick,
}: {
  icon: IconName;
  label: string;
  hint: string;
  tone?: "neutral" | "danger";
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`${styles.action} ${tone === "danger" ? styles.actionDanger : ""}`}
      onClick={onClick}
    >
      <span className={styles.actionIcon} aria-hidden="true">
        <Icon name={icon} size={20} />
      </span>
      <span className={styles.actionText}>
        <span className={styles.actionLabel}>{label}</span>
        <span className={styles.actionHint}>{hint}</span>
      </span>
    </button>
  );
}
