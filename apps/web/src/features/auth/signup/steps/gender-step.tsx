import type { Gender } from "@quad/contracts";
import { useId } from "react";
import { FieldError, fieldStyles } from "../../ui/fields";
import type { StepProps } from "./step-props";
import styles from "./steps.module.css";
import { usePick } from "./use-pick";

const OPTIONS: { value: Gender; label: string }[] = [
  { value: "male", label: "Guy" },
  { value: "female", label: "Girl" },
];

export function GenderStep({ values, errors, onChange, onPick, disabled }: StepProps) {
  const errorId = useId();
  const { group, picked } = usePick(onPick);
  return (
    <fieldset
      className={fieldStyles.field}
      aria-describedby={errors.gender ? errorId : undefined}
      disabled={disabled}
      {...group}
    >
      <legend className={fieldStyles.label}>Gender</legend>
      <div className={styles.genderGrid}>
        {OPTIONS.map((option) => (
          <label key={option.value} className={`${styles.genderCard} ${styles[option.value]}`}>
            <input
              type="radio"
              name="gender"
              value={option.value}
              className={styles.radioInput}
              checked={values.gender === option.value}
              onChange={() => onChange({ gender: option.value })}
              onClick={() => picked({ gender: option.value })}
            />
            <span className={styles.genderIcon} aria-hidden="true">
              <GenderGlyph gender={option.value} />
            </span>
            <span className={styles.genderLabel}>{option.label}</span>
            <span className={styles.radioMark} aria-hidden="true" />
          </label>
        ))}
      </div>
      {errors.gender && <FieldError id={errorId}>{errors.gender}</FieldError>}
    </fieldset>
  );
}

/** The usual ♂ / ♀ symbols, drawn so they look the same on every device. */
function GenderGlyph({ gender }: { gender: Gender }) {
  return (
    <svg
      width="30"
      height="30"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
    >
      {gender === "male" ? (
        <>
          <circle cx="10" cy="14" r="6" />
          <path d="M14.5 9.5 20 4m-5 0h5v5" />
        </>
      ) : (
        <>
          <circle cx="12" cy="9" r="6" />
          <path d="M12 15v7m-3.5-3.5h7" />
        </>
      )}
    </svg>
  );
}
