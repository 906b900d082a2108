import { FirstNameField } from "../../ui/profile-fields";
import type { StepProps } from "./step-props";

export function PersonalStep({ values, errors, onChange, disabled }: StepProps) {
  return (
    <FirstNameField
      value={values.firstName}
      onChange={(firstName) => onChange({ firstName })}
      error={errors.firstName}
      disabled={disabled}
      hint="This is how classmates will see you. No last names."
    />
  );
}
