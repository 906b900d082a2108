import { Button, Icon, Modal } from "../../components";
import type { SafetySubject } from "./subject";
import { SAFETY_TEXT } from "./texts";
import styles from "./safety.module.css";

export interface BlockDialogProps {
  subject: SafetySubject;
  blocking: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The confirmation before a block, saying plainly what it does and how to undo it. */
export function BlockDialog({ subject, blocking, onConfirm, onClose }: BlockDialogProps) {
  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!blocking}
      hideCloseButton={blocking}
      size="sm"
      title={SAFETY_TEXT.blockTitle(subject.name)}
      footer={
        <>
          <Button
            variant="danger"
            size="lg"
            block
            loading={blocking}
            icon={<Icon name="ban" size={20} />}
            onClick={onConfirm}
          >
            {SAFETY_TEXT.blockAction(subject.name)}
          </Button>
          <Button variant="ghost" block disabled={blocking} onClick={onClose}>
            {SAFETY_TEXT.cancel}
          </Button>
        </>
      }
    >
      <ul className={styles.consequences}>
        {SAFETY_TEXT.blockConsequences(subject.name).map(({ icon, text }) => (
          <li key={text}>
            <Icon name={icon} size={18} className={styles.consequenceIcon} />
            {text}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
