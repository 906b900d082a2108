import type { MeUser } from "@quad/contracts";
import { useEffect, useRef, type FormEvent } from "react";
import { Button } from "../../components";
import { TextField } from "../auth/ui/fields";
import { CodeField } from "../auth/ui/phone-fields";
import styles from "./school-email.module.css";
import { useSchoolEmail } from "./use-school-email";

export interface SchoolEmailFormProps {
  user: MeUser;
  onVerified?: (user: MeUser) => void;
}

/** School address → Send code → the code from the e-mail → Verify. */
export function SchoolEmailForm({ user, onVerified }: SchoolEmailFormProps) {
  const form = useSchoolEmail(user, onVerified);
  const codeInput = useRef<HTMLInputElement>(null);
  const codeSent = form.sentTo !== null;
  useEffect(() => {
    if (codeSent) codeInput.current?.focus();
  }, [codeSent]);
  // A refused code was cleared: back to the field for the right one (once it is enabled again).
  const { codeRejections, verifying } = form;
  useEffect(() => {
    if (codeRejections > 0 && !verifying) codeInput.current?.focus();
  }, [codeRejections, verifying]);
  const waiting = form.resendInSeconds > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void (codeSent ? form.submitCode() : form.sendCode());
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Verify your school e-mail">
      <TextField
        label="School e-mail"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={form.mainDomain ? `you@${form.mainDomain}` : "you@school.edu"}
        value={form.email}
        onChange={(event) => form.setEmail(event.target.value)}
        error={form.emailError}
        hint={codeSent ? undefined : "Only you see it. We never show it to anyone."}
        disabled={codeSent || form.sending}
      />
      {codeSent ? (
        <>
          <p className={styles.sent} aria-live="polite">
            We e-mailed a 6-digit code to <strong>{form.sentTo}</strong>. It expires in 10 minutes.{" "}
            <button type="button" className={styles.link} onClick={form.changeAddress} disabled={form.verifying}>
              Use another address
            </button>
          </p>
          <CodeField
            inputRef={codeInput}
            value={form.code}
            onChange={form.setCode}
            error={form.codeError}
            disabled={form.verifying}
          />
          <Button type="submit" size="lg" block loading={form.verifying}>
            {form.verifying ? "Verifying..." : "Verify e-mail"}
          </Button>
          <Button
            type="button"
            variant="ghost"
            block
            onClick={() => void form.sendCode()}
            disabled={form.sending || form.verifying || waiting}
          >
            {form.sending ? "Sending…" : waiting ? `Send a new code in ${form.resendInSeconds}s` : "Send a new code"}
          </Button>
        </>
      ) : (
        <Button type="submit" size="lg" block loading={form.sending}>
          Send code
        </Button>
      )}
    </form>
  );
}
