import { TextField } from "../../ui/fields";
import type { StepProps } from "./step-props";

export function PersonalStep({ values, errors, onChange, disabled }: StepProps) {
  return (
    <TextField
      label="First name"
      name="firstName"
      autoComplete="given-name"
      autoCapitalize="words"
      enterKeyHint="next"
      placeholder="Your first name"
      maxLength={50}
      value={values.firstName}
      onChange={(event) => onChange({ firstName: event.target.value })}
      error={errors.firstName}
      disabled={disabled}
      hint="This is how classmates will see you. No last names."
    />
  );
}
