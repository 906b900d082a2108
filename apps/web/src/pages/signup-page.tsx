import { Link } from "react-router";
import { AppShell, Card, Notice, PageHeader, TopBar } from "../components";
import { useDocumentTitle } from "../lib/use-document-title";
import styles from "./signup-page.module.css";
import pageStyles from "./pages.module.css";

/** The wizard's steps in order (spec §2 "Sign-up wizard"). */
export const SIGNUP_STEPS = [
  { id: "personal", label: "Your first name" },
  { id: "university", label: "Your university" },
  { id: "graduation", label: "Your class year" },
  { id: "gender", label: "Guy or Girl" },
  { id: "instagram", label: "Your Instagram handle" },
  { id: "phone", label: "Verify your phone" },
  { id: "profile-image", label: "A profile photo" },
] as const;

export type SignupStepId = (typeof SIGNUP_STEPS)[number]["id"];

export interface SignupPageProps {
  /** `/opt-in` opens the same wizard directly at the phone step. */
  startAt?: SignupStepId;
}

/** `/signup` and `/opt-in` (spec §2). The step forms arrive with the sign-up feature. */
export function SignupPage({ startAt = "personal" }: SignupPageProps) {
  const stepIndex = Math.max(
    0,
    SIGNUP_STEPS.findIndex((step) => step.id === startAt),
  );
  const atPhone = startAt === "phone";
  useDocumentTitle(atPhone ? "Verify your phone" : "Sign up");

  return (
    <AppShell>
      <TopBar />
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Sign-up progress"
        aria-valuemin={1}
        aria-valuemax={SIGNUP_STEPS.length}
        aria-valuenow={stepIndex + 1}
      >
        <span className={styles.progressFill} style={{ width: `${((stepIndex + 1) / SIGNUP_STEPS.length) * 100}%` }} />
      </div>
      <PageHeader
        eyebrow={`Step ${stepIndex + 1} of ${SIGNUP_STEPS.length}`}
        title={atPhone ? "Verify your phone" : "Create your account"}
        subtitle={
          atPhone ? "Confirm your number with a one-time code." : "It takes about a minute. Here's what we'll ask for."
        }
      />
      <Card className={pageStyles.stack}>
        <ol className={styles.steps}>
          {SIGNUP_STEPS.map((step, index) => (
            <li
              key={step.id}
              className={`${styles.step} ${index === stepIndex ? styles.current : ""}`}
              aria-current={index === stepIndex ? "step" : undefined}
            >
              <span className={styles.stepNumber} aria-hidden="true">
                {index + 1}
              </span>
              {step.label}
            </li>
          ))}
        </ol>
        <Notice icon="layers" title="The sign-up steps are being built" tone="neutral">
          Each step will get its own screen here.
        </Notice>
      </Card>
      <p className={pageStyles.footnote}>
        Already have an account? <Link to="/login">Log in</Link>
        <br />
        <Link to="/terms" target="_blank" rel="noopener">
          Terms and Privacy Policy
        </Link>
      </p>
    </AppShell>
  );
}
