import {
  AUTH_CODE,
  loginFormSchema,
  phoneDigits,
  PHONE_DIGITS,
  TOASTS,
  VALIDATION,
  VerificationCodeSchema,
} from "@quad/contracts";
import { useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { httpStatusOf } from "../../../lib/api-error";
import { useSessionStore } from "../../../lib/session-store";
import { notify } from "../../../lib/toast";
import { SKIP_AUTH_REDIRECT, trpc } from "../../../lib/trpc";
import { usePhoneAuth } from "../phone-auth/use-phone-auth";
import { codeDigits } from "../ui/phone-fields";
import { useWebOtp } from "../ui/use-web-otp";
import { usePhoneVerification } from "../use-phone-verification";

export interface LoginErrors {
  phone?: string;
  code?: string;
}

/**
 * /login (docs/product.md "In the app"): enter the phone, send a code (the number locks),
 * verify it, then load the profile. No profile: "No such user exists!" and
 * the session is dropped (a number that never signed up is refused at the check already, since it
 * brings no consents: the same words, and the form unlocks). A verified profile goes to /, an unverified one to
 * /signup to finish it.
 */
export function useLogin() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const recaptchaHost = useRef<HTMLDivElement>(null);
  const verification = usePhoneVerification(usePhoneAuth(recaptchaHost));
  const [errors, setErrors] = useState<LoginErrors>({});
  const [verifying, setVerifying] = useState(false);

  const setPhone = (phone: string) => {
    verification.setPhone(phone);
    setErrors((e) => ({ ...e, phone: undefined }));
  };
  const setCode = (code: string) => {
    verification.setCode(code);
    setErrors((e) => ({ ...e, code: undefined }));
    // The sixth digit (typed, pasted or filled from the text) sends it: no Verify tap needed.
    if (code.length === AUTH_CODE.digits && verification.codeSent && !verifying) void verifyCode(code);
  };

  async function sendCode() {
    const parsed = loginFormSchema({ codeStepActive: false }).safeParse({ phone: verification.phone });
    if (!parsed.success || phoneDigits(verification.phone).length !== PHONE_DIGITS) {
      setErrors({ phone: VALIDATION.loginPhone });
      return;
    }
    await verification.sendCode();
  }

  async function verifyCode(code = verification.code) {
    const parsed = loginFormSchema({ codeStepActive: true }).safeParse({ phone: verification.phone, code });
    if (!parsed.success) {
      setErrors({ code: VALIDATION.loginCode });
      notify.error(TOASTS.enterCode);
      return;
    }
    const format = VerificationCodeSchema.safeParse(code);
    if (!format.success) {
      setErrors({ code: format.error.issues[0]?.message ?? VALIDATION.verificationCodeFormat });
      return;
    }

    setVerifying(true);
    try {
      // The spec's words for a wrong code on /login, and for a number with no account.
      const tokens = await verification.verify({
        failure: TOASTS.authFailed,
        wrongCode: TOASTS.authFailed,
        noAccount: TOASTS.noSuchUser,
        code,
      });
      if (!tokens) return;
      const session = useSessionStore.getState();
      session.startSession(tokens);

      let user;
      try {
        // Into the query cache, where the profile lives; the session's `verified` follows it.
        user = await utils.users.me.fetch(undefined, { ...SKIP_AUTH_REDIRECT, staleTime: 0, retry: false });
      } catch (error) {
        session.clear();
        verification.changeNumber();
        notify.error(httpStatusOf(error) === 404 ? TOASTS.noSuchUser : TOASTS.fetchUserFailed);
        return;
      }

      if (user.isVerified) {
        notify.success(TOASTS.loggedIn);
        void navigate("/", { replace: true });
      } else {
        notify.info(TOASTS.completeProfile);
        void navigate("/signup", { replace: true });
      }
    } finally {
      setVerifying(false);
    }
  }

  useWebOtp(verification.codeSent, (code) => setCode(codeDigits(code)));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (verification.sending || verifying) return;
    if (!verification.codeSent && verification.resendInSeconds > 0) return;
    void (verification.codeSent ? verifyCode() : sendCode());
  }

  return { verification, errors, verifying, setPhone, setCode, submit, recaptchaHost };
}
