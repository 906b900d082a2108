import styles from "./logo.module.css";

/** The Quad mark: a bold "Q" on the brand gradient. */
export function LogoMark({ size = 32 }: { size?: number }) {
  const gradientId = `quad-mark-${size}`;
  return (
    <svg className={styles.mark} width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="0.55" stopColor="#db2777" />
          <stop offset="1" stopColor="#f97316" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="18" fill={`url(#${gradientId})`} />
      <circle cx="30" cy="30" r="14" fill="none" stroke="#fff" strokeWidth="7" />
      <path d="M37 37l10 10" stroke="#fff" strokeWidth="7" strokeLinecap="round" />
    </svg>
  );
}

/** Mark plus the "Quad" wordmark. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <span className={styles.logo} style={{ fontSize: size * 0.72 }}>
      <LogoMark size={size} />
      <span className={styles.word}>Quad</span>
    </span>
  );
}
