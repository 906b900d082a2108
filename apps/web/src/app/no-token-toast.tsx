import { TOAST_DETAILS, TOASTS } from "@quad/contracts";
import { notify } from "../lib/toast";
import styles from "./no-token-toast.module.css";

/** "No token found. Please log in." (the guards load this only when they say it). */
export const sayNoToken = () => notify.error(TOASTS.noToken);

/** The same words over one plain sentence: a session was stored here but could not be used. */
export const saySpoiledSession = () =>
  notify.error(
    // One block: the toast lays its children out in a row.
    <div>
      <span className={styles.title}>{TOASTS.noToken}</span>
      <span className={styles.detail}>{TOAST_DETAILS.sessionSpoiled}</span>
    </div>,
  );
