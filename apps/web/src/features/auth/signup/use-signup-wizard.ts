import {
  AUTH_CODE,
  GENDERS,
  SignupPhoneSchema,
  TOASTS,
  VALIDATION,
  VerificationCodeSchema,
  type Gender,
} from "@quad/contracts";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useRestClient } from "../../../app/api-provider";
import { selectHasSession, useSessionStore } from "../../../lib/session-store";
import { notify } from "../../../lib/toast";
import { trpc } from "../../../lib/trpc";
import { usePhoneAuth } from "../phone-auth/use-phone-auth";
import { codeDigits } from "../ui/phone-fields";
import { useWebOtp } from "../ui/use-web-otp";
import { usePhoneVerification } from "../use-phone-verification";
import { continueStoredProfile, saveBasicProfile, uploadProfilePhoto, type ProfileOutcome } from "./profile";
import { clearSignupDraft, saveSignupDraft } from "./signup-draft";
import {
  basicProfile,
  isFieldStep,
  validateFieldStep,
  validatePhotoStep,
  valuesFromUser,
  type SignupErrors,
  type SignupValues,
} from "./signup-values";
import { releasePhoto, type PhotoDraft } from "./steps/profile-image-step";
import { useStepHistory } from "./use-step-history";
import { canGoBack, nextStep, previousStep, type WizardStep } from "./wizard-steps";

/** How long a choice (a school, a class year, Guy or Girl) shows as chosen before the next step. */
export const PICK_PAUSE_MS = 250;

/** Steps that ask for one typed answer: on arrival their field takes focus, so typing starts at once. */
const TYPED_STEPS: readonly WizardStep[] = ["personal", "instagram"];

/** Both sign-up checkboxes, recorded by the server once the code proves the phone. */
const CONSENTS = { sms: true, terms: true } as const;

/** `?preference=male|female`, carried from the landing preview (docs/product.md). */
function usePreference(): Gender | undefined {
  const [params] = useSearchParams();
  const value = params.get("preference");
  return (GENDERS as readonly string[]).includes(value ?? "") ? (value as Gender) : undefined;
}

/**
 * The sign-up wizard's state and actions: the step, the answers and their
 * errors, the phone verification, the photo, and what the main button, Back
 * and each field do. The view (signup-wizard.tsx) only draws them.
 */
export function useSignupWizard({
  initialStep,
  initialValues,
}: {
  initialStep: WizardStep;
  initialValues?: SignupValues;
}) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const rest = useRestClient();
  const preference = usePreference();
  const signedIn = useSessionStore(selectHasSession);

  const [step, setStep] = useState<WizardStep>(initialStep);
  const [values, setValues] = useState<SignupValues>(
    () => initialValues ?? valuesFromUser(utils.users.me.getData() ?? null),
  );
  const [errors, setErrors] = useState<SignupErrors>({});
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(busy);
  useEffect(() => {
    busyRef.current = busy;
  }, [busy]);
  const [photo, setPhoto] = useState<PhotoDraft | null>(null);

  const recaptchaHost = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const verification = usePhoneVerification(usePhoneAuth(recaptchaHost));

  // A new step: start at its top and move focus to its question, so screen readers announce it;
  // a step that asks for one typed answer focuses its field instead (its label is the question).
  const shownStep = useRef<WizardStep | null>(null);
  useEffect(() => {
    const first = shownStep.current === null;
    if (shownStep.current === step) return;
    shownStep.current = step;
    const field = TYPED_STEPS.includes(step) ? body.current?.querySelector<HTMLInputElement>("input") : null;
    if (field) {
      field.focus({ preventScroll: true });
      return;
    }
    if (first) return;
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

  // Until the phone is verified the answers live only here: keep them across a reload. After, the server has them.
  useEffect(() => {
    if (signedIn) clearSignupDraft();
    else saveSignupDraft(step, values);
  }, [signedIn, step, values]);

  // Object URLs of the photo live until the wizard goes away.
  const photoRef = useRef(photo);
  useEffect(() => {
    photoRef.current = photo;
  }, [photo]);
  useEffect(() => () => releasePhoto(photoRef.current), []);

  // A choice moves on by itself after a moment; any other move cancels a pending one.
  const pendingPick = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(pendingPick.current), []);

  /** Shows `target` without touching history (the browser's Back or Forward brought it). */
  const show = (target: WizardStep) => {
    window.clearTimeout(pendingPick.current);
    setErrors({});
    setStep(target);
  };
  const history = useStepHistory(step, show, (current) => !canGoBack(current) || busyRef.current);

  /** A move the student made on the page: it gets its own history entry. */
  const goTo = (target: WizardStep | null) => {
    window.clearTimeout(pendingPick.current);
    if (!target || target === step) return;
    history.push(target, step);
    show(target);
  };

  const change = (patch: Partial<SignupValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) delete next[key as keyof SignupErrors];
      return next;
    });
  };

  /**
   * A choice made by tap or click (a school, a class year, Guy or Girl): kept, and after a moment
   * to see it land, on to the next step. Back returns to change it. Choices made with the arrow
   * keys only change the answer: Enter moves on.
   */
  const pick = (patch: Partial<SignupValues>) => {
    change(patch);
    window.clearTimeout(pendingPick.current);
    const from = step;
    pendingPick.current = window.setTimeout(() => goTo(nextStep(from, { signedIn })), PICK_PAUSE_MS);
  };

  /** Where the wizard goes after a profile call (see profile.ts). */
  const follow = (outcome: ProfileOutcome) => {
    if (outcome.kind === "signedIn") {
      notify.success(outcome.message);
      void navigate("/home", { replace: true });
      return;
    }
    if (outcome.kind === "step") {
      const { user } = outcome;
      if (user)
        setValues((v) => ({ ...valuesFromUser(user), smsConsent: v.smsConsent, termsAccepted: v.termsAccepted }));
      goTo(outcome.step);
    }
    if (outcome.errors) setErrors(outcome.errors);
  };

  const api = { utils, rest };
  const saveBasics = async () => follow(await saveBasicProfile(api, values, preference));

  const sendCode = () => {
    if (verification.sending) return;
    // The server's rule on the typed number: no code is asked for a number it would refuse.
    const phone = SignupPhoneSchema.safeParse(verification.phone);
    setErrors((e) => ({ ...e, phone: phone.success ? undefined : phone.error.issues[0]?.message, code: undefined }));
    if (phone.success) void verification.sendCode();
  };

  const verifyPhone = async (typed = verification.code) => {
    const code = VerificationCodeSchema.safeParse(typed);
    if (!code.success) {
      const message = code.error.issues[0]?.message ?? VALIDATION.loginCode;
      setErrors({ code: message });
      if (message === VALIDATION.loginCode) notify.error(TOASTS.enterCode);
      return;
    }
    const tokens = await verification.verify({ consents: CONSENTS, failure: TOASTS.invalidCode, code: code.data });
    if (!tokens) return;
    useSessionStore.getState().startSession(tokens);
    notify.success(TOASTS.phoneVerified);
    follow(basicProfile(values) ? await saveBasicProfile(api, values, preference) : await continueStoredProfile(api));
  };

  /** A crop to upload: until "Preview Crop" Complete stays disabled, so it never answers with an error. */
  const canComplete = Boolean(photo?.cropped);

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
    const target = previousStep(step);
    if (!target || !canGoBack(step) || busy) return;
    // The browser's own Back when the entry below is that step, so both Backs walk the same entries.
    if (history.back(target)) return;
    history.replace(target);
    show(target);
  };

  const onPhoneChange = (phone: string) => {
    verification.setPhone(phone);
    setErrors((e) => ({ ...e, phone: undefined }));
  };
  const onPhoneBlur = () => {
    if (!verification.phone) return;
    const parsed = SignupPhoneSchema.safeParse(verification.phone);
    if (!parsed.success) setErrors((e) => ({ ...e, phone: parsed.error.issues[0]?.message }));
  };
  const onCodeChange = (code: string) => {
    verification.setCode(code);
    setErrors((e) => ({ ...e, code: undefined }));
    // The sixth digit (typed, pasted or filled from the text) verifies: no Verify Code tap needed.
    if (code.length === AUTH_CODE.digits && verification.codeSent && !busy) void runBusy(() => verifyPhone(code));
  };
  useWebOtp(step === "phone" && verification.codeSent, (code) => onCodeChange(codeDigits(code)));

  const onPhotoError = (message: string | null) => setErrors((e) => ({ ...e, profileImage: message ?? undefined }));

  return {
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
  };
}
