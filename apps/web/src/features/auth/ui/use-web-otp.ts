import { useEffect, useRef } from "react";

/** What `navigator.credentials.get({ otp })` resolves with where the browser has the WebOTP API. */
interface OtpCredential {
  code?: string;
}

/**
 * While `active` (a code was texted and not yet used), asks the browser for
 * the code in the incoming SMS (the WebOTP API: Chrome on Android shows a
 * one-tap sheet) and hands it to `onCode`. Where the browser lacks the API
 * nothing happens: `autocomplete="one-time-code"` on the field still lets
 * iOS offer the code above the keyboard.
 */
export function useWebOtp(active: boolean, onCode: (code: string) => void): void {
  const latest = useRef(onCode);
  useEffect(() => {
    latest.current = onCode;
  });
  useEffect(() => {
    if (!active || typeof window === "undefined" || !("OTPCredential" in window)) return;
    const abort = new AbortController();
    navigator.credentials
      .get({ otp: { transport: ["sms"] }, signal: abort.signal } as CredentialRequestOptions)
      .then((credential) => {
        const code = (credential as OtpCredential | null)?.code;
        if (code && !abort.signal.aborted) latest.current(code);
      })
      // Declined, timed out, or aborted as the step moved on: the field is still there to type in.
      .catch(() => undefined);
    return () => abort.abort();
  }, [active]);
}
