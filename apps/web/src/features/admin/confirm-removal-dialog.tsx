import { Button, Icon, Modal } from "../../components";
import { ADMIN_TEXT } from "./texts";
import styles from "./admin.module.css";

export interface ConfirmRemovalDialogProps {
  kind: "removeProfile" | "removePhoto";
  name: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** Removals cannot be undone: each asks first, saying what goes. */
export function ConfirmRemovalDialog({ kind, name, onConfirm, onClose }: ConfirmRemovalDialogProps) {
  const profile = kind === "removeProfile";
  return (
    <Modal
      open
      onClose={onClose}
      size="md"
      title={profile ? ADMIN_TEXT.confirmRemoveProfileTitle(name) : ADMIN_TEXT.confirmRemovePhotoTitle(name)}
      footer={
        <>
          <Button
            variant="danger"
            size="lg"
            block
            icon={<Icon name={profile ? "userX" : "imageOff"} size={20} />}
            onClick={onConfirm}
          >
            {profile ? ADMIN_TEXT.removeProfile : ADMIN_TEXT.removePhoto}
          </Button>
          <Button variant="ghost" block onClick={onClose}>
            {ADMIN_TEXT.cancel}
          </Button>
        </>
      }
    >
      <p className={styles.confirmBody}>
        {profile ? ADMIN_TEXT.confirmRemoveProfileBody(name) : ADMIN_TEXT.confirmRemovePhotoBody(name)}
      </p>
    </Modal>
  );
}
