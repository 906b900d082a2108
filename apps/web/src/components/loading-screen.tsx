import { LogoMark } from "./logo";
import styles from "./loading-screen.module.css";
import { Spinner } from "./spinner";

/** Shown full-screen while the session is restored (docs/product.md). */
export function LoadingScreen({ label = "Loading Quad" }: { label?: string }) {
  return (
    <div className={styles.screen} role="status" aria-live="polite">
      <LogoMark size={64} />
      <Spinner size="md" label={null} />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
