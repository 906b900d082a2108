import { PROFILE_LIST } from "@quad/contracts";
import { useId, useState, type KeyboardEvent } from "react";
import { FieldError } from "../auth/ui/fields";
import styles from "./profile.module.css";
import { TAG_LIMITS } from "./texts";

export interface TagListFieldProps {
  label: string;
  placeholder: string;
  values: string[];
  onChange: (values: string[]) => void;
  error?: string;
  disabled?: boolean;
}

/** A short list of entries (organizations, interests): type and press Enter or Add; tap × to remove. */
export function TagListField({ label, placeholder, values, onChange, error, disabled }: TagListFieldProps) {
  const id = useId();
  const limitId = useId();
  const [draft, setDraft] = useState("");
  const full = values.length >= PROFILE_LIST.maxItems;
  // No maxLength: a pasted entry is kept whole, and the count turns into a warning past the limit.
  const nearLimit = draft.length >= PROFILE_LIST.maxLength - 10;
  const tooLong = draft.trim().length > PROFILE_LIST.maxLength;
  const limit = full ? TAG_LIMITS.full(label) : tooLong ? TAG_LIMITS.tooLong : null;

  const add = () => {
    const entry = draft.trim();
    if (!entry || tooLong) return;
    // Adding one twice is a no-op, not an error.
    if (!values.some((value) => value.toLowerCase() === entry.toLowerCase())) onChange([...values, entry]);
    setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      add();
    }
  };

  return (
    <div className={styles.tagField}>
      <label htmlFor={id} className={styles.fieldLabel}>
        {label}
      </label>
      {values.length > 0 && (
        <ul className={styles.tags} aria-label={label}>
          {values.map((value) => (
            // An entry over the limit (only one saved before the limit could be) is marked for fixing.
            <li
              key={value}
              className={`${styles.tag} ${value.trim().length > PROFILE_LIST.maxLength ? styles.tagInvalid : ""}`}
            >
              <span>{value}</span>
              <button
                type="button"
                className={styles.tagRemove}
                aria-label={`Remove ${value}`}
                onClick={() => onChange(values.filter((v) => v !== value))}
                disabled={disabled}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={`${styles.tagInputRow} ${error ? styles.invalid : ""}`}>
        <input
          id={id}
          className={styles.tagInput}
          value={draft}
          placeholder={full ? `Up to ${PROFILE_LIST.maxItems}` : placeholder}
          enterKeyHint="done"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled || full}
          aria-invalid={error || tooLong ? true : undefined}
          aria-describedby={limit ? limitId : undefined}
        />
        <button
          type="button"
          className={styles.tagAdd}
          onClick={add}
          disabled={disabled || full || !draft.trim() || tooLong}
          aria-label={`Add to ${label}`}
        >
          Add
        </button>
      </div>
      {nearLimit && !full && (
        <p className={`${styles.tagCount} ${tooLong ? styles.tagCountOver : ""}`} aria-hidden="true">
          {draft.trim().length}/{PROFILE_LIST.maxLength}
        </p>
      )}
      {limit && (
        <p id={limitId} className={styles.tagLimit} role="status">
          {limit}
        </p>
      )}
      {error && <FieldError>{error}</FieldError>}
    </div>
  );
}
