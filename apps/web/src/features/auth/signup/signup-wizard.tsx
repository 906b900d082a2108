import {
  GENDERS,
  SignupPhoneSchema,
  TOASTS,
  VALIDATION,
  VerificationCodeSchema,
  type Gender,
} from "@quad/contracts";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button, Icon, Spinner } from "../../../components";
import { useRestClient } from "../../../app/api-provider";
import { selectHasSession, useSessionStore } from "../../../lib/session-store";
import { notify } from "../../../lib/toast";
import { trpc } from "../../../lib/trpc";
import { usePhoneAuth } from "../phone-auth/use-phone-auth";
import { usePhoneVerification } from "../use-phone-verification";
import {
  continueStoredProfile,
  saveBasicProfile,
  uploadProfilePhoto,
  type AccountOutcome,
} from "./account";
import {
  basicProfile,
  isFieldStep,
  validateFieldStep,
  validatePhotoStep,
  valuesFromUser,
  type SignupErrors,
  type SignupValues,
} from "./signup-values";
import { STEP_COPY } from "./step-copy";
import { GenderStep } from "./steps/gender-step";
import { GraduationStep } from "./steps/graduation-step";
import { InstagramStep } from "./steps/instagram-step";
import { PersonalStep } from "./steps/personal-step";
import { PhoneStep } from "./steps/phone-step";
import { ProfileImageStep, releasePhoto, type PhotoDraft } from "./steps/profile-image-step";
import { UniversityStep } from "./steps/university-step";
import styles from "./signup-wizard.module.css";
import { useResumeStep } from "./use-resume-step";
import {
  canGoBack,
  mainButtonLabel,
  nextStep,
  previousStep,
  stepNumber,
  WIZARD_STEPS,
  type WizardStep,
} from "./wizard-steps";

/** Both sign-up checkboxes, recorded by the server once the code proves the phone. */
const CONSENTS = { sms: true, terms: true } as const;

export interface SignupWizardProps {
  /** `/opt-in` opens at the phone step. */
  startAt?: WizardStep;
}

/** The sign-up wizard of docs/product.md: seven steps, a progress bar, one main button. */
export function SignupWizard({ startAt = "personal" }: SignupWizardProps) {
  const initialStep = useResumeStep(startAt);
  if (!initialStep) {
    return (
      <div className={styles.loading}>
        <Spinner label="Loading your profile" />
      </div>
    );
  }
  return <Wizard initialStep={initialStep} />;
}

/** `?preference=male|female`, carried from the landing preview (docs/product.md). */
function usePreference(): Gender | undefined {
  const [params] = useSearchParams();
  const value = params.get("preference");
  return (GENDERS as readonly string[]).includes(value ?? "") ? (value as Gender) : undefined;
}

function Wizard({ initialStep }: { initialStep: WizardStep }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const rest = useRestClient();
  const preference = usePreference();
  const signedIn = useSessionStore(selectHasSession);

  const [step, setStep] = useState<WizardStep>(initialStep);
  const [values, setValues] = useState<SignupValues>(() => valuesFromUser(useSessionStore.getState().user));
  const [errors, setErrors] = useState<SignupErrors>({});
  const [busy, setBusy] = useState(false);
  const [photo, setPhoto] = useState<PhotoDraft | null>(null);

  const recaptchaHost = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const verification = usePhoneVerification(usePhoneAuth(recaptchaHost));

  // A new step: start at its top and move focus to its question, so screen readers announce it.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    window.scrollTo(0, 0);
    heading.current?.focus({ preventScroll: true });
  }, [step]);

  useEffect(() => {
    if (verification.codeSent) codeInput.current?.focus();
  }, [verification.codeSent]);
  // A refused code was cleared: back to the field for the right one (once it is enabled again).
  const { codeRejections } = verification;
  useEffect(() => {
    if (codeRejections > 0 && !busy) codeInput.current?.focus();
  }, [codeRejections, busy]);

  // Object URLs of the photo live until the wizard goes away.
  const photoRef = useRef(photo);
  useEffect(() => {
    photoRef.current = photo;
  }, [photo]);
  useEffect(() => () => releasePhoto(photoRef.current), []);

  const goTo = (target: WizardStep | null) => {
    if (!target) return;
    setErrors({});
    setStep(target);
  };

  const change = (patch: Partial<SignupValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) delete next[key as keyof SignupErrors];
      return next;
    });
  };

  /** Where the wizard goes after an account call (see account.ts). */
  const follow = (outcome: AccountOutcome) => {
    if (outcome.kind === "signedIn") {
      notify.success(outcome.message);
      void navigate("/home", { replace: true });
      return;
    }
    if (outcome.kind === "step") {
      const { user } = outcome;
      if (user) setValues((v) => ({ ...valuesFromUser(user), smsConsent: v.smsConsent, termsAccepted: v.termsAccepted }));
      goTo(outcome.step);
    }
    if (outcome.errors) setErrors(outcome.errors);
  };

  const api = { client: utils.client, rest };
  const saveBasics = async () => follow(await saveBasicProfile(api, values, preference));

  const sendCode = () => {
    if (verification.sending) return;
    // The server's rule on the typed number: no code is asked for a number it would refuse.
    const phone = SignupPhoneSchema.safeParse(verification.phone);
    setErrors((e) => ({ ...e, phone: phone.success ? undefined : phone.error.issues[0]?.message, code: undefined }));
    if (phone.success) void verification.sendCode();
  };

  const verifyPhone = async () => {
    const code = VerificationCodeSchema.safeParse(verification.code);
    if (!code.success) {
      const message = code.error.issues[0]?.message ?? VALIDATION.loginCode;
      setErrors({ code: message });
      if (message === VALIDATION.loginCode) notify.error(TOASTS.enterCode);
      return;
    }
    const tokens = await verification.verify({ consents: CONSENTS, failure: TOASTS.invalidCode });
    if (!tokens) return;
    useSessionStore.getState().setTokens(tokens);
    notify.success(TOASTS.phoneVerified);
    follow(basicProfile(values) ? await saveBasicProfile(api, values, preference) : await continueStoredProfile(api));
  };

  const completeProfile = async () => {
    const message = validatePhotoStep(photo?.file ?? null, Boolean(photo?.cropped));
    if (message) {
      setErrors({ profileImage: message });
      notify.error(message);
      return;
    }
    follow(await uploadProfilePhoto(api, photo!.cropped!));
  };

  const runBusy = async (task: () => Promise<void>) => {
    setBusy(true);
    try {
      await task();
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (step === "phone") {
      if (verification.codeSent) void runBusy(verifyPhone);
      return;
    }
    if (step === "profileImage") {
      void runBusy(completeProfile);
      return;
    }
    if (isFieldStep(step)) {
      const stepErrors = validateFieldStep(step, values);
      if (stepErrors) {
        setErrors(stepErrors);
        return;
      }
    }
    // Already signed in (resumed, or the phone is verified): the phone step is done, save and go to the photo.
    if (step === "instagram" && signedIn) void runBusy(saveBasics);
    else goTo(nextStep(step, { signedIn }));
  };

  const back = () => {
    if (canGoBack(step) && !busy) goTo(previousStep(step));
  };

  const number = stepNumber(step);
  const total = WIZARD_STEPS.length;
  const copy = STEP_COPY[step];
  const compactHeader = step === "profileImage" && photo !== null;
  const stepProps = { values, errors, onChange: change, disabled: busy };

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

        <div key={step} className={styles.body}>
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
              onPhoneChange={(phone) => {
                verification.setPhone(phone);
                setErrors((e) => ({ ...e, phone: undefined }));
              }}
              onPhoneBlur={() => {
                if (!verification.phone) return;
                const parsed = SignupPhoneSchema.safeParse(verification.phone);
                if (!parsed.success) setErrors((e) => ({ ...e, phone: parsed.error.issues[0]?.message }));
              }}
              onCodeChange={(code) => {
                verification.setCode(code);
                setErrors((e) => ({ ...e, code: undefined }));
              }}
              recaptchaHost={recaptchaHost}
              codeInput={codeInput}
            />
          )}
          {step === "profileImage" && (
            <ProfileImageStep
              photo={photo}
              onPhotoChange={setPhoto}
              error={errors.profileImage}
              onError={(message) => setErrors((e) => ({ ...e, profileImage: message ?? undefined }))}
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
            className={styles.main}
            loading={busy}
            disabled={step === "phone" && !verification.codeSent}
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
