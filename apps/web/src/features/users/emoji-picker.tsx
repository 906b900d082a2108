import { MAX_EMOJIS } from "@quad/contracts";
import { FieldError } from "../auth/ui/fields";
import styles from "./profile.module.css";

/** A small palette that suits a campus profile; emojis already chosen stay shown even if not in it. */
const PALETTE = [
  "🔥",
  "✨",
  "😎",
  "🎸",
  "🎧",
  "📚",
  "🏀",
  "⚽",
  "🎾",
  "🏃",
  "🎨",
  "📸",
  "🎮",
  "🍕",
  "🌮",
  "☕",
  "🌱",
  "🐶",
  "🐱",
  "🌊",
  "⛰️",
  "✈️",
  "💻",
  "🎭",
];

export interface EmojiPickerProps {
  value: string[];
  onChange: (emojis: string[]) => void;
  error?: string;
  disabled?: boolean;
}

/** Up to three emojis, shown on an unlocked profile; tap to add or remove. */
export function EmojiPicker({ value, onChange, error, disabled }: EmojiPickerProps) {
  const options = [...value.filter((emoji) => !PALETTE.includes(emoji)), ...PALETTE];
  const full = value.length >= MAX_EMOJIS;
  const toggle = (emoji: string) =>
    onChange(value.includes(emoji) ? value.filter((e) => e !== emoji) : [...value, emoji].slice(0, MAX_EMOJIS));

  return (
    <fieldset className={styles.emojiField} disabled={disabled}>
      <legend className={styles.fieldLabel}>
        Emojis{" "}
        <span className={styles.count}>
          {value.length}/{MAX_EMOJIS}
        </span>
      </legend>
      <div className={styles.emojiGrid}>
        {options.map((emoji) => {
          const chosen = value.includes(emoji);
          return (
            <button
              key={emoji}
              type="button"
              className={`${styles.emoji} ${chosen ? styles.emojiChosen : ""}`}
              aria-pressed={chosen}
              aria-label={emoji}
              disabled={!chosen && full}
              onClick={() => toggle(emoji)}
            >
              {emoji}
            </button>
          );
        })}
      </div>
      {error && <FieldError>{error}</FieldError>}
    </fieldset>
  );
}
