import type { SignupErrors, SignupValues } from "../signup-values";

/** What every question step receives from the wizard. */
export interface StepProps {
  values: SignupValues;
  errors: SignupErrors;
  onChange: (patch: Partial<SignupValues>) => void;
  /** A choice tapped or clicked: kept, and the wizard moves on (choice steps only). */
  onPick?: (patch: Partial<SignupValues>) => void;
  disabled?: boolean;
}
