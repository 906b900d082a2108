import type { SignupErrors, SignupValues } from "../signup-values";

/** What every question step receives from the wizard. */
export interface StepProps {
  values: SignupValues;
  errors: SignupErrors;
  onChange: (patch: Partial<SignupValues>) => void;
  disabled?: boolean;
}
