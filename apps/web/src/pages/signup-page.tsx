import { AppShell, TopBar } from "../components";
import { SignupWizard } from "../features/auth/signup/signup-wizard";
import type { WizardStep } from "../features/auth/signup/wizard-steps";
import { useDocumentTitle } from "../lib/use-document-title";

export interface SignupPageProps {
  /** `/opt-in` opens the same wizard directly at the phone step. */
  startAt?: WizardStep;
}

/** `/signup` and `/opt-in` (docs/product.md): the sign-up wizard. */
export function SignupPage({ startAt = "personal" }: SignupPageProps) {
  useDocumentTitle(startAt === "phone" ? "Verify your phone" : "Sign up");
  return (
    <AppShell>
      <TopBar />
      <SignupWizard startAt={startAt} />
    </AppShell>
  );
}
