import { useRef } from "react";
import { SCREEN_TEXT, type Gender } from "@quad/contracts";
import { Modal } from "../../components";
import styles from "./gender-picker-modal.module.css";
import { Icon } from "../../components/icon";
import { PREFERENCE_OPTIONS } from "./preference-switch";

export interface GenderPickerModalProps {
  open: boolean;
  onPick: (gender: Gender) => void;
  onClose: () => void;
}

/** The landing's first question: "Who do you want to see?" Guys or Girls. */
export function GenderPickerModal({ open, onPick, onClose }: GenderPickerModalProps) {
  const firstOption = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={SCREEN_TEXT.whoDoYouWantToSee}
      description="Pick who shows up in your preview round. You can switch any time."
      size="sm"
      initialFocusRef={firstOption}
    >
      <div className={styles.options}>
        {PREFERENCE_OPTIONS.map(({ gender, label }, index) => (
          <button
            key={gender}
            ref={index === 0 ? firstOption : undefined}
            type="button"
            className={`${styles.option} ${styles[gender]}`}
            onClick={() => onPick(gender)}
          >
            <span className={styles.avatar} aria-hidden="true">
              <Icon name="users" size={30} />
            </span>
            <span className={styles.label}>{label}</span>
          </button>
        ))}
      </div>
    </Modal>
  );
}
