import { useState } from "react";
import { Button, Icon } from "../../components";
import { VOTES_ARRIVE_WITHIN_THE_HOUR } from "./texts";
import styles from "./arrival-note.module.css";

/** Kept on this device once dismissed: a note about how the app works, not data the server owns. */
const SEEN_KEY = "quad:inbox-arrival-note-seen";

const seen = () => {
  try {
    return localStorage.getItem(SEEN_KEY) === "1";
  } catch {
    return false;
  }
};

/** The first time a student looks at her cards: how they arrive, until she says she got it. */
export function ArrivalNote() {
  const [hidden, setHidden] = useState(seen);
  if (hidden) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(SEEN_KEY, "1");
    } catch {
      // Private mode: the note comes back next time, which is harmless.
    }
    setHidden(true);
  };
  return (
    <div className={styles.note} role="note">
      <span className={styles.icon} aria-hidden="true">
        <Icon name="clock" size={18} />
      </span>
      <p className={styles.text}>{VOTES_ARRIVE_WITHIN_THE_HOUR}</p>
      <Button variant="ghost" className={styles.dismiss} onClick={dismiss}>
        Got it
      </Button>
    </div>
  );
}
