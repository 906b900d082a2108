import { GRADUATION_YEARS } from "@quad/contracts";
import { useId } from "react";
import { FieldError, fieldStyles } from "../../ui/fields";
import type { StepProps } from "./step-props";
import styles from "./steps.module.css";

export function GraduationStep({ values, errors, onChange, disabled }: StepProps) {
  const errorId = useId();
  return (
    <fieldset
      className={fieldStyles.field}
      aria-describedby={errors.graduationYear ? errorId : undefined}
      disabled={disabled}
    >
      <legend className={fieldStyles.label}>Class of</legend>
      <div className={styles.yearGrid}>
        {GRADUATION_YEARS.map((year) => (
          <label key={year} className={styles.chip}>
            <input
              type="radio"
              name="graduationYear"
              value={year}
              className={styles.radioInput}
              checked={values.graduationYear === year}
              onChange={() => onChange({ graduationYear: year })}
            />
            {year}
          </label>
        ))}
      </div>
      {errors.graduationYear && <FieldError id={errorId}>{errors.graduationYear}</FieldError>}
    </fieldset>
  );
}
