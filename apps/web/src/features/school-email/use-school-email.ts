import { SCHOOL_EMAIL_MESSAGES, SchoolEmailSchema, schoolAddressRefusal, type MeUser } from "@quad/contracts";
import { useState } from "react";
import { fieldErrorsOf, retryAfterOf, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useCountdown } from "../../lib/use-countdown";

/** The digits of an e-mailed code. */
export const EMAIL_CODE_DIGITS = 6;

/** The student's school and the domains that prove membership of it (from the public school list). */
export function useSchoolDomains(user: MeUser) {
  const schools = trpc.schools.list.useQuery(undefined, { staleTime: 60 * 60 * 1000 });
  const school = schools.data?.find((s) => s.id === user.university);
  return { schoolName: user.schoolName ?? school?.schoolName ?? "your school", domains: school?.emailDomains ?? [] };
}

/**
 * The two steps of proving a school address: send a code to it, then enter
 * the code. The address is checked here against the school's domains for a
 * quick answer; the server decides.
 */
export function useSchoolEmail(user: MeUser, onVerified?: (user: MeUser) => void) {
  const { schoolName, domains } = useSchoolDomains(user);
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  /** Counts refused codes: the form focuses the emptied field after each. */
  const [codeRejections, setCodeRejections] = useState(0);
  const [resendInSeconds, setResendInSeconds] = useCountdown();

  const send = trpc.schoolEmail.sendCode.useMutation();
  const verify = trpc.schoolEmail.verify.useMutation();

  /** The address as the server will read it, or a message saying what is wrong. */
  function checkAddress(): string | null {
    const parsed = SchoolEmailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? SCHOOL_EMAIL_MESSAGES.invalid);
      return null;
    }
    const refusal = domains.length > 0 ? schoolAddressRefusal(parsed.data, schoolName, domains) : null;
    if (refusal) {
      setEmailError(refusal);
      return null;
    }
    return parsed.data;
  }

  async function sendCode() {
    const address = checkAddress();
    if (!address) return;
    setEmailError(null);
    try {
      const { retryAfterSeconds } = await send.mutateAsync({ email: address });
      setSentTo(address);
      setCode("");
      setCodeError(null);
      setResendInSeconds(retryAfterSeconds);
      notify.success(SCHOOL_EMAIL_MESSAGES.sent(address));
    } catch (error) {
      const wait = retryAfterOf(error);
      if (wait) setResendInSeconds(wait);
      const message = fieldErrorsOf(error).email?.[0] ?? toUserMessage(error);
      // A resend refused while the code field shows: say it there, not on the locked address.
      if (sentTo === address) setCodeError(message);
      else setEmailError(message);
    }
  }

  async function submitCode(typed = code) {
    if (!sentTo || verify.isPending) return;
    if (!new RegExp(`^\\d{${EMAIL_CODE_DIGITS}}$`).test(typed)) {
      setCodeError("Enter the 6-digit code from the e-mail");
      return;
    }
    try {
      // The cached profile takes the answer (lib/refresh-after.ts): the home screen shows the round.
      const me = await verify.mutateAsync({ email: sentTo, code: typed });
      notify.success(SCHOOL_EMAIL_MESSAGES.verified);
      onVerified?.(me);
    } catch (error) {
      const field = fieldErrorsOf(error).email?.[0];
      if (field) {
        // The address itself was refused (taken, or no longer the school's): back to it.
        setSentTo(null);
        setEmailError(field);
        return;
      }
      setCode("");
      setCodeError(toUserMessage(error));
      setCodeRejections((n) => n + 1);
    }
  }

  return {
    schoolName,
    mainDomain: domains[0] ?? null,
    email,
    setEmail: (value: string) => {
      setEmail(value);
      setEmailError(null);
    },
    code,
    setCode: (value: string) => {
      const digits = value.replace(/\D/g, "").slice(0, EMAIL_CODE_DIGITS);
      setCode(digits);
      setCodeError(null);
      // The sixth digit (typed or pasted) verifies: no Verify tap needed.
      if (digits.length === EMAIL_CODE_DIGITS) void submitCode(digits);
    },
    codeRejections,
    resendInSeconds,
    sentTo,
    emailError,
    codeError,
    sending: send.isPending,
    verifying: verify.isPending,
    sendCode,
    submitCode,
    changeAddress: () => {
      setSentTo(null);
      setCode("");
      setCodeError(null);
    },
  };
}
