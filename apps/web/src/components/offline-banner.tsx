import { SCREEN_TEXT } from "@quad/contracts";
import { useSyncExternalStore } from "react";
import styles from "./offline-banner.module.css";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** A calm line at the top while the browser is offline; the screens keep what they already loaded. */
export function OfflineBanner() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <p className={styles.banner} role="status">
      {SCREEN_TEXT.offline}
    </p>
  );
}
