import { TOASTS, toE164, type AuthTokens } from "@quad/contracts";
import { useCallback, useEffect, useState } from "react";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { PhoneAuthError, type PhoneAuthFlow, type SignupConsents } from "./phone-auth/phone-auth";

/** What to tell the student about a failed send or verify. */
export function phoneAuthMessage(error: unknown, fallback: string): string {
  return error instanceof PhoneAuthError ? error.message : toUserMessage(error, fallback);
}

/** A countdown in whole seconds: start it with `set(n)`; it ticks down to 0. */
function useCountdown(): [seconds: number, set: (seconds: number) => void] {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);
  return [seconds, setSeconds];
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
  /** Seconds before another code may be requested. */
  resendInSeconds: number;
  /** Sends (or re-sends) a code; toasts the outcome. Resolves true when a code went out. */
  sendCode: () => Promise<boolean>;
  /**
   * Trades the code for a session. On failure: toasts it, clears the code,
   * marks the field with the message (`codeError`) and resolves null.
   */
  verify: (options: { consents?: SignupConsents; failure: string }) => Promise<AuthTokens | null>;
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
  const [resendInSeconds, setResendInSeconds] = useCountdown();

  const sendCode = useCallback(async () => {
    setSending(true);
    try {
      const { retryAfterSeconds } = await flow.sendCode(toE164(phone));
      setCodeSent(true);
      setResendInSeconds(retryAfterSeconds);
      notify.success(TOASTS.codeSent);
      return true;
    } catch (error) {
      notify.error(phoneAuthMessage(error, TOASTS.sendCodeFailed));
      return false;
    } finally {
      setSending(false);
    }
  }, [flow, phone, setResendInSeconds]);

  const verify = useCallback(
    async ({ consents, failure }: { consents?: SignupConsents; failure: string }) => {
      try {
        return await flow.verifyCode(toE164(phone), code, consents);
      } catch (error) {
        const message = phoneAuthMessage(error, failure);
        notify.error(message);
        setCodeDigits("");
        setCodeError(message);
        setCodeRejections((n) => n + 1);
        return null;
      }
    },
    [flow, phone, code],
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
