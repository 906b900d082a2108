import { canSendSignupCode, SMS_CONSENT_TEXT, TERMS_CONSENT_TEXT } from "@quad/contracts";
import { useEffect, useRef, type RefObject } from "react";
import { Button, Icon } from "../../../../components";
import { Checkbox } from "../../ui/fields";
import { CodeSent, sendCodeLabel } from "../../ui/code-sent";
import { CodeField, PhoneField } from "../../ui/phone-fields";
import type { PhoneVerification } from "../../use-phone-verification";
import type { StepProps } from "./step-props";
import styles from "./steps.module.css";

const TERMS_LINKS: Record<string, string> = {
  "Terms and Conditions": "/terms#terms-and-conditions",
  "Privacy Policy": "/terms#privacy-policy",
};

/** The terms checkbox text from contracts, with its two documents as links opening in a new tab. */
function TermsConsentText() {
  return TERMS_CONSENT_TEXT.split(/(Terms and Conditions|Privacy Policy)/).map((part, index) => {
    const href = TERMS_LINKS[part];
    return href ? (
      <a key={index} href={href} target="_blank" rel="noopener noreferrer">
        {part}
      </a>
    ) : (
      part
    );
  });
}

export interface PhoneStepProps extends StepProps {
  verification: PhoneVerification;
  onSendCode: () => void;
  onPhoneChange: (formatted: string) => void;
  onPhoneBlur: () => void;
  onCodeChange: (digits: string) => void;
  recaptchaHost: RefObject<HTMLDivElement | null>;
  codeInput: RefObject<HTMLInputElement | null>;
}

/**
 * Both consents first; only then the number and Send Code, which also needs
 * the whole "(555) 555-5555" (docs/product.md). Once a code is out the number locks
 * and the code input appears; the wizard's main button verifies it.
 */
export function PhoneStep({
  values,
  errors,
  onChange,
  disabled,
  verification,
  onSendCode,
  onPhoneChange,
  onPhoneBlur,
  onCodeChange,
  recaptchaHost,
  codeInput,
}: PhoneStepProps) {
  const { codeSent, sending, resendInSeconds } = verification;
  const consented = values.smsConsent && values.termsAccepted;
  const phoneInput = useRef<HTMLInputElement>(null);
  // The second box ticked: the number is next, so its field takes focus (no tap on it).
  const wasConsented = useRef(consented);
  useEffect(() => {
    if (consented && !wasConsented.current && !codeSent) phoneInput.current?.focus();
    wasConsented.current = consented;
  }, [consented, codeSent]);
  const canSend = canSendSignupCode({
    formattedPhone: verification.phone,
    smsConsent: values.smsConsent,
    termsAccepted: values.termsAccepted,
  });

  return (
    <div className={styles.stack}>
      {!codeSent && (
        <div className={styles.consents}>
          <Checkbox
            name="smsConsent"
            checked={values.smsConsent}
            onChange={(event) => onChange({ smsConsent: event.target.checked })}
            disabled={disabled}
          >
            {SMS_CONSENT_TEXT}
          </Checkbox>
          <Checkbox
            name="termsAccepted"
            checked={values.termsAccepted}
            onChange={(event) => onChange({ termsAccepted: event.target.checked })}
            disabled={disabled}
          >
            <TermsConsentText />
          </Checkbox>
        </div>
      )}

      <PhoneField
        inputRef={phoneInput}
        value={verification.phone}
        onChange={onPhoneChange}
        onBlur={onPhoneBlur}
        error={errors.phone}
        disabled={!consented || codeSent || sending || disabled}
        hint={consented ? undefined : "Tick both boxes above to enter your number."}
      />

      {codeSent ? (
        <>
          <CodeSent
            phone={verification.phone}
            resendInSeconds={verification.resendInSeconds}
            sending={sending}
            onResend={onSendCode}
            onChangeNumber={verification.changeNumber}
            disabled={disabled}
          />
          <CodeField
            inputRef={codeInput}
            value={verification.code}
            onChange={onCodeChange}
            error={errors.code ?? verification.codeError}
            disabled={disabled}
          />
        </>
      ) : (
        // The step's next move, so the primary button (the wizard's Verify Code waits for a code).
        <Button
          size="lg"
          block
          icon={<Icon name="mail" size={20} />}
          disabled={!canSend || disabled || resendInSeconds > 0}
          loading={sending}
          onClick={onSendCode}
        >
          {sendCodeLabel(resendInSeconds)}
        </Button>
      )}
      {/* Hosts Firebase's invisible reCAPTCHA when that provider is on. */}
      <div ref={recaptchaHost} />
    </div>
  );
}
