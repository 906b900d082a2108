import { useState } from "react";
import { Link } from "react-router";
import { Button, Icon, Spinner } from "../../../components";
import { useSessionStore } from "../../../lib/session-store";
import { loadSignupDraft } from "./signup-draft";
import type { SignupValues } from "./signup-values";
import { STEP_COPY } from "./step-copy";
import { GenderStep } from "./steps/gender-step";
import { GraduationStep } from "./steps/graduation-step";
import { InstagramStep } from "./steps/instagram-step";
import { PersonalStep } from "./steps/personal-step";
import { PhoneStep } from "./steps/phone-step";
import { ProfileImageStep } from "./steps/profile-image-step";
import { UniversityStep } from "./steps/university-step";
import styles from "./signup-wizard.module.css";
import { useResumeStep } from "./use-resume-step";
import { useSignupWizard } from "./use-signup-wizard";
import { canGoBack, mainButtonLabel, stepNumber, WIZARD_STEPS, type WizardStep } from "./wizard-steps";

export interface SignupWizardProps {
  /** `/opt-in` opens at the phone step. */
  startAt?: WizardStep;
}

/** The sign-up wizard of docs/product.md: seven steps, a progress bar, one main button. */
export function SignupWizard({ startAt = "personal" }: SignupWizardProps) {
  const initialStep = useResumeStep(startAt);
  // A visitor who reloads mid-way comes back to their step and answers (never their phone or code).
  const [draft] = useState(() =>
    useSessionStore.getState().token === null && startAt === WIZARD_STEPS[0] ? loadSignupDraft() : null,
  );
  if (!initialStep) {
    return (
      <div className={styles.loading}>
        <Spinner label="Loading your profile" />
      </div>
    );
  }
  return <Wizard initialStep={draft?.step ?? initialStep} initialValues={draft?.values} />;
}

function Wizard({ initialStep, initialValues }: { initialStep: WizardStep; initialValues?: SignupValues }) {
  const {
    step,
    values,
    errors,
    busy,
    photo,
    setPhoto,
    signedIn,
    verification,
    recaptchaHost,
    codeInput,
    heading,
    body,
    change,
    pick,
    canComplete,
    submit,
    back,
    sendCode,
    onPhoneChange,
    onPhoneBlur,
    onCodeChange,
    onPhotoError,
  } = useSignupWizard({ initialStep, initialValues });
  const number = stepNumber(step);
  const total = WIZARD_STEPS.length;
  const copy = STEP_COPY[step];
  const compactHeader = step === "profileImage" && photo !== null;
  const stepProps = { values, errors, onChange: change, onPick: pick, disabled: busy };

  return (
    <div className={styles.wizard}>
      <div className={styles.progressRow}>
        <span className={styles.stepCount}>
          Step {number} of {total}
        </span>
        <div
          className={styles.progress}
          role="progressbar"
          aria-label="Sign-up progress"
          aria-valuemin={1}
          aria-valuemax={total}
          aria-valuenow={number}
          aria-valuetext={`Step ${number} of ${total}`}
        >
          <span className={styles.progressFill} style={{ width: `${(number / total) * 100}%` }} />
        </div>
      </div>

      <form className={styles.form} onSubmit={submit} noValidate>
        {/* With a photo to crop, every pixel of a phone's height goes to the photo. */}
        <header className={`${styles.header} ${compactHeader ? styles.compact : ""}`}>
          <h1 ref={heading} tabIndex={-1} className={styles.title}>
            {copy.title}
          </h1>
          {!compactHeader && <p className={styles.subtitle}>{copy.subtitle}</p>}
        </header>

        <div key={step} ref={body} className={styles.body}>
          {step === "personal" && <PersonalStep {...stepProps} />}
          {step === "university" && <UniversityStep {...stepProps} />}
          {step === "graduation" && <GraduationStep {...stepProps} />}
          {step === "gender" && <GenderStep {...stepProps} />}
          {step === "instagram" && <InstagramStep {...stepProps} />}
          {step === "phone" && (
            <PhoneStep
              {...stepProps}
              verification={verification}
              onSendCode={sendCode}
              onPhoneChange={onPhoneChange}
              onPhoneBlur={onPhoneBlur}
              onCodeChange={onCodeChange}
              recaptchaHost={recaptchaHost}
              codeInput={codeInput}
            />
          )}
          {step === "profileImage" && (
            <ProfileImageStep
              photo={photo}
              onPhotoChange={setPhoto}
              error={errors.profileImage}
              onError={onPhotoError}
              disabled={busy}
            />
          )}
        </div>

        <div className={styles.footer}>
          <Button
            variant="secondary"
            size="lg"
            className={styles.back}
            icon={<Icon name="arrowLeft" size={20} />}
            onClick={back}
            disabled={!canGoBack(step) || busy}
          >
            Back
          </Button>
          <Button
            type="submit"
            size="lg"
            // Before a code is sent, Send Code is the phone step's one primary action; Verify Code waits, quieter.
            variant={step === "phone" && !verification.codeSent ? "secondary" : "primary"}
            className={styles.main}
            loading={busy}
            disabled={(step === "phone" && !verification.codeSent) || (step === "profileImage" && !canComplete)}
          >
            {mainButtonLabel(step, busy)}
          </Button>
        </div>
      </form>

      {!signedIn && (
        <p className={styles.footnote}>
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      )}
    </div>
  );
}
