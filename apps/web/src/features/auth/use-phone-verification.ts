import { SIGN_IN_MESSAGES, TOASTS, toE164, type AuthTokens } from "@quad/contracts";
import { useCallback, useState } from "react";
import { fieldErrorsOf, retryAfterOf, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { useCountdown } from "../../lib/use-countdown";
import { PhoneAuthError, type PhoneAuthFlow, type SignupConsents } from "./phone-auth/phone-auth";

/** What to tell the student about a failed send or verify. */
export function phoneAuthMessage(error: unknown, fallback: string): string {
  return error instanceof PhoneAuthError ? error.message : toUserMessage(error, fallback);
}

export interface VerifyOptions {
  consents?: SignupConsents;
  /** The toast when the server gave no message of its own. */
  failure: string;
  /** The toast for a wrong code, where the screen words it its own way (/login: "Authentication failed"). */
  wrongCode?: string;
  /**
   * Sent without consents: the toast when the server says the phone has no account yet (it asks a new
   * account for the sign-up's consents). The number unlocks, as for any other number with no account.
   */
  noAccount?: string;
  /** The code to check, when it is newer than the state (the sixth digit just typed). */
  code?: string;
}

export interface PhoneVerification {
  /** As typed, formatted "(555) 555-5555". */
  phone: string;
  setPhone: (formatted: string) => void;
  code: string;
  setCode: (digits: string) => void;
  /** A code went out: the number is locked and the code input shows. */
  codeSent: boolean;
  sending: boolean;
  /** Seconds before another code may be requested for the number as typed (0 for another number). */
  resendInSeconds: number;
  /** Sends (or re-sends) a code; toasts the outcome. Resolves true when a code went out. */
  sendCode: () => Promise<boolean>;
  /**
   * Trades the code for a session. On failure: toasts it, clears the code,
   * marks the field with the message (`codeError`) and resolves null.
   */
  verify: (options: VerifyOptions) => Promise<AuthTokens | null>;
  /** Why the last code was refused; cleared as a new one is typed. */
  codeError: string | null;
  /** Counts refused codes: the form focuses the emptied field after each. */
  codeRejections: number;
  /** Unlocks the number to correct it. */
  changeNumber: () => void;
}

/** The send-code / enter-code state shared by /login and the sign-up phone step. */
export function usePhoneVerification(flow: PhoneAuthFlow): PhoneVerification {
  const [phone, setPhone] = useState("");
  const [code, setCodeDigits] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [codeRejections, setCodeRejections] = useState(0);
  const setCode = useCallback((digits: string) => {
    setCodeDigits(digits);
    setCodeError(null);
  }, []);
  const [codeSent, setCodeSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [waitSeconds, setWaitSeconds] = useCountdown();
  // The server's wait holds for one number: the one a code was asked for.
  const [waitFor, setWaitFor] = useState<string | null>(null);
  const resendInSeconds = waitFor === phone ? waitSeconds : 0;

  const sendCode = useCallback(async () => {
    setSending(true);
    try {
      const { retryAfterSeconds } = await flow.sendCode(toE164(phone));
      setCodeSent(true);
      // A new code: the last one's "Invalid verification code" no longer applies.
      setCodeError(null);
      setWaitFor(phone);
      setWaitSeconds(retryAfterSeconds);
      notify.success(TOASTS.codeSent);
      return true;
    } catch (error) {
      notify.error(phoneAuthMessage(error, TOASTS.sendCodeFailed));
      // Too soon for this number (a code went out from sign-up a moment ago): count down to when it may.
      const wait = retryAfterOf(error);
      if (wait) {
        setWaitFor(phone);
        setWaitSeconds(wait);
      }
      return false;
    } finally {
      setSending(false);
    }
  }, [flow, phone, setWaitSeconds]);

  const verify = useCallback(
    async ({ consents, failure, wrongCode, noAccount, code: typed = code }: VerifyOptions) => {
      try {
        return await flow.verifyCode(toE164(phone), typed, consents);
      } catch (error) {
        if (noAccount && !consents && fieldErrorsOf(error)["consents.sms"]) {
          notify.error(noAccount);
          setCodeSent(false);
          setCode("");
          return null;
        }
        const message = phoneAuthMessage(error, failure);
        notify.error(wrongCode && message === SIGN_IN_MESSAGES.invalid ? wrongCode : message);
        setCodeDigits("");
        setCodeError(message);
        setCodeRejections((n) => n + 1);
        return null;
      }
    },
    [flow, phone, code, setCode],
  );

  const changeNumber = useCallback(() => {
    setCodeSent(false);
    setCode("");
  }, [setCode]);

  return {
    phone,
    setPhone,
    code,
    setCode,
    codeSent,
    sending,
    resendInSeconds,
    sendCode,
    verify,
    codeError,
    codeRejections,
    changeNumber,
  };
}
