import { Spinner } from "../../../../components";
import styles from "./photo-loading.module.css";
import { PHOTO_TEXT } from "./photo-texts";

export interface PhotoLoadingProps {
  /** Over the cropper's frame (absolutely placed) instead of in its own box. */
  overlay?: boolean;
  height?: number;
}

/** "Loading photo…" where the cropper is, until it can crop. */
export function PhotoLoading({ overlay = false, height }: PhotoLoadingProps) {
  return (
    <div
      className={`${styles.loading} ${overlay ? styles.overlay : ""}`}
      style={height ? { height } : undefined}
      role="status"
    >
      <Spinner label={null} />
      <span className={styles.text}>{PHOTO_TEXT.loading}</span>
    </div>
  );
}
