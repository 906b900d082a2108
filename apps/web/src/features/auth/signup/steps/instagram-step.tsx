import { InstagramField } from "../../ui/profile-fields";
import type { StepProps } from "./step-props";

export function InstagramStep({ values, errors, onChange, disabled }: StepProps) {
  return (
    <InstagramField
      value={values.instagramHandle}
      onChange={(instagramHandle) => onChange({ instagramHandle })}
      error={errors.instagramHandle}
      disabled={disabled}
      hint="It stays blurred. Only someone you vote for can unlock it."
    />
  );
}
