import styles from "./code-sent.module.css";

export interface CodeSentProps {
  phone: string;
  resendInSeconds: number;
  sending: boolean;
  onResend: () => void;
  onChangeNumber: () => void;
  disabled?: boolean;
}

/** "Send Code", or while the server asks to wait for this number, how long ("Send Code in 12s"). */
export function sendCodeLabel(waitSeconds: number): string {
  return waitSeconds > 0 ? `Send Code in ${waitSeconds}s` : "Send Code";
}

/** After a code went out: where it went, a way to fix the number, and a resend once allowed. */
export function CodeSent({ phone, resendInSeconds, sending, onResend, onChangeNumber, disabled }: CodeSentProps) {
  const waiting = resendInSeconds > 0;
  return (
    <div className={styles.sent}>
      <p className={styles.text} aria-live="polite">
        We texted a 6-digit code to <strong className={styles.phone}>{phone}</strong>.
      </p>
      <div className={styles.actions}>
        <button type="button" className={styles.link} onClick={onChangeNumber} disabled={disabled}>
          Change number
        </button>
        <button type="button" className={styles.link} onClick={onResend} disabled={disabled || waiting || sending}>
          {sending ? "Sending…" : waiting ? `Resend in ${resendInSeconds}s` : "Resend code"}
        </button>
      </div>
    </div>
  );
}
