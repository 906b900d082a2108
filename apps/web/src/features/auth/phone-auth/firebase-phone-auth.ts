import type { RecaptchaVerifier } from "firebase/auth";
import { AUTH_CODE, ERROR_MESSAGES, TOASTS, VALIDATION, type AuthTokens } from "@quad/contracts";
import { PhoneAuthError, type FirebaseConfig, type PhoneAuthFlow, type SignupConsents } from "./phone-auth";
import { createVerifierKeeper, isRemovedElementError, type ClearableVerifier } from "./recaptcha-keeper";

/** What a code confirmation gives back: Firebase's signed-in user, enough to get its ID token. */
export interface PhoneConfirmation {
  confirm(code: string): Promise<{ user: { getIdToken(): Promise<string> } }>;
}

/** The few Firebase Auth calls the phone flow makes; the real SDK or a test double. */
export interface FirebasePhoneSdk<V extends ClearableVerifier = ClearableVerifier> {
  /** An invisible reCAPTCHA verifier hosted by `container`. */
  createVerifier(container: HTMLElement): V;
  signInWithPhoneNumber(phone: string, verifier: V): Promise<PhoneConfirmation>;
  signOut(): Promise<void>;
}

export interface FirebasePhoneAuthOptions<V extends ClearableVerifier> {
  sdk: FirebasePhoneSdk<V>;
  /** The element currently rendered to host the invisible reCAPTCHA. */
  getContainer: () => HTMLElement | null;
  /** Trades a Firebase ID token for our own session (`auth.firebase`). */
  exchangeIdToken: (idToken: string, consents?: SignupConsents) => Promise<AuthTokens>;
}

/** Firebase does not say when another code may be sent; the local provider's interval is a fair pause. */
const RESEND_AFTER_SECONDS = AUTH_CODE.resendIntervalMs / 1000;

const FIREBASE_MESSAGES: Record<string, string> = {
  "auth/invalid-verification-code": TOASTS.invalidCode,
  "auth/missing-verification-code": TOASTS.enterCode,
  "auth/code-expired": "This code has expired. Please request a new one.",
  "auth/invalid-phone-number": VALIDATION.loginPhone,
  "auth/too-many-requests": ERROR_MESSAGES.tooManyRequests,
  "auth/quota-exceeded": ERROR_MESSAGES.tooManyRequests,
};

function firebaseCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

function toPhoneAuthError(error: unknown, fallback: string): PhoneAuthError {
  const code = firebaseCode(error);
  return new PhoneAuthError((code && FIREBASE_MESSAGES[code]) ?? fallback);
}

/**
 * The `firebase` provider: Firebase texts the code (after an invisible
 * reCAPTCHA check), confirms it, and the resulting ID token is traded for our
 * session. The verifier is re-created whenever its host element was removed.
 */
export function createFirebasePhoneAuth<V extends ClearableVerifier>({
  sdk,
  getContainer,
  exchangeIdToken,
}: FirebasePhoneAuthOptions<V>): PhoneAuthFlow {
  const verifiers = createVerifierKeeper((element) => sdk.createVerifier(element));
  let pending: { phone: string; confirmation: PhoneConfirmation } | null = null;

  const container = () => {
    const element = getContainer();
    if (!element) throw new PhoneAuthError(TOASTS.sendCodeFailed);
    return element;
  };

  return {
    async sendCode(phone) {
      let confirmation: PhoneConfirmation;
      try {
        confirmation = await sdk.signInWithPhoneNumber(phone, verifiers.get(container()));
      } catch (error) {
        verifiers.reset();
        if (!isRemovedElementError(error)) throw toPhoneAuthError(error, TOASTS.sendCodeFailed);
        // The element went away between creating the verifier and using it: once more on a fresh one.
        try {
          confirmation = await sdk.signInWithPhoneNumber(phone, verifiers.get(container()));
        } catch (retryError) {
          verifiers.reset();
          throw toPhoneAuthError(retryError, TOASTS.sendCodeFailed);
        }
      }
      pending = { phone, confirmation };
      return { retryAfterSeconds: RESEND_AFTER_SECONDS };
    },

    async verifyCode(phone, code, consents) {
      if (!pending || pending.phone !== phone) throw new PhoneAuthError(TOASTS.sendCodeFailed);
      let idToken: string;
      try {
        const { user } = await pending.confirmation.confirm(code);
        idToken = await user.getIdToken();
      } catch (error) {
        throw toPhoneAuthError(error, TOASTS.invalidCode);
      }
      const tokens = await exchangeIdToken(idToken, consents);
      pending = null;
      // Our session is the one that counts; don't leave a Firebase one behind.
      sdk.signOut().catch(() => undefined);
      return tokens;
    },
  };
}

/** Loads Firebase Auth (its own lazy chunk) and binds it to the server's project. */
export async function loadFirebasePhoneSdk(config: FirebaseConfig): Promise<FirebasePhoneSdk<RecaptchaVerifier>> {
  const [{ getApp, getApps, initializeApp }, auth] = await Promise.all([
    import("firebase/app"),
    import("firebase/auth"),
  ]);
  const app = getApps().length > 0 ? getApp() : initializeApp(config);
  const firebaseAuth = auth.getAuth(app);
  firebaseAuth.useDeviceLanguage();
  return {
    createVerifier: (container) => new auth.RecaptchaVerifier(firebaseAuth, container, { size: "invisible" }),
    signInWithPhoneNumber: (phone, verifier) => auth.signInWithPhoneNumber(firebaseAuth, phone, verifier),
    signOut: () => auth.signOut(firebaseAuth),
  };
}
