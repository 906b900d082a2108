import { useEffect, useRef } from "react";
import { Button } from "../../../components";
import { CodeSent, sendCodeLabel } from "../ui/code-sent";
import { CodeField, PhoneField } from "../ui/phone-fields";
import styles from "../ui/auth-form.module.css";
import { useLogin } from "./use-login";

/** The /login form: phone → Send Code → code → Verify Code. */
export function LoginForm() {
  const { verification, errors, verifying, setPhone, setCode, submit, recaptchaHost } = useLogin();
  const { codeSent, sending } = verification;
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (codeSent) codeInput.current?.focus();
  }, [codeSent]);
  // A refused code was cleared: back to the field for the right one (once it is enabled again).
  const { codeRejections } = verification;
  useEffect(() => {
    if (codeRejections > 0 && !verifying) codeInput.current?.focus();
  }, [codeRejections, verifying]);

  return (
    <>
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Log in with your phone">
        <PhoneField
          value={verification.phone}
          onChange={setPhone}
          error={errors.phone}
          disabled={codeSent || sending || verifying}
        />
        {codeSent ? (
          <>
            <CodeSent
              phone={verification.phone}
              resendInSeconds={verification.resendInSeconds}
              sending={sending}
              onResend={() => void verification.sendCode()}
              onChangeNumber={verification.changeNumber}
              disabled={verifying}
            />
            <CodeField
              inputRef={codeInput}
              value={verification.code}
              onChange={setCode}
              error={errors.code ?? verification.codeError}
              disabled={verifying}
            />
            <Button type="submit" size="lg" block loading={verifying}>
              {verifying ? "Verifying..." : "Verify Code"}
            </Button>
          </>
        ) : (
          <Button type="submit" size="lg" block loading={sending} disabled={verification.resendInSeconds > 0}>
            {sendCodeLabel(verification.resendInSeconds)}
          </Button>
        )}
      </form>
      {/* Hosts Firebase's invisible reCAPTCHA when that provider is on. */}
      <div ref={recaptchaHost} />
    </>
  );
}
