import { classYearsAt } from "@quad/contracts";
import { useId } from "react";
import { FieldError, fieldStyles } from "../../ui/fields";
import type { StepProps } from "./step-props";
import styles from "./steps.module.css";
import { usePick } from "./use-pick";

/** This academic year's classes, by today's date (contracts' class-years.ts); the server checks the same rule. */
export function GraduationStep({ values, errors, onChange, onPick, disabled }: StepProps) {
  const errorId = useId();
  const { group, picked } = usePick(onPick);
  const years = classYearsAt(new Date());
  return (
    <fieldset
      className={fieldStyles.field}
      aria-describedby={errors.graduationYear ? errorId : undefined}
      disabled={disabled}
      {...group}
    >
      <legend className={fieldStyles.label}>Class of</legend>
      <div className={styles.yearGrid}>
        {years.map((year) => (
          <label key={year} className={styles.chip}>
            <input
              type="radio"
              name="graduationYear"
              value={year}
              className={styles.radioInput}
              checked={values.graduationYear === year}
              onChange={() => onChange({ graduationYear: year })}
              onClick={() => picked({ graduationYear: year })}
            />
            {year}
          </label>
        ))}
      </div>
      {errors.graduationYear && <FieldError id={errorId}>{errors.graduationYear}</FieldError>}
    </fieldset>
  );
}
