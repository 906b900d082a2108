import { TOASTS } from "@quad/contracts";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import {
  cardBrandOf,
  digitsOf,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  validateCard,
  type CardErrors,
  type CardFields,
} from "./card-input";
import type { CheckoutFormProps } from "./checkout-form";
import styles from "./local-card-form.module.css";

const EMPTY: CardFields = { number: "", expiry: "", cvc: "" };

/** Each box of the card form: its name for screen readers, hint, autofill slot and as-you-type formatting. */
const CARD_INPUTS: Record<
  keyof CardFields,
  { label: string; placeholder: string; autoComplete: string; format: (text: string) => string }
> = {
  number: {
    label: "Card number",
    placeholder: "1234 1234 1234 1234",
    autoComplete: "cc-number",
    format: formatCardNumber,
  },
  expiry: { label: "Expiration date (MM / YY)", placeholder: "MM / YY", autoComplete: "cc-exp", format: formatExpiry },
  cvc: { label: "Security code (CVC)", placeholder: "CVC", autoComplete: "cc-csc", format: formatCvc },
};

/**
 * The local payment provider's card form (PAYMENT_PROVIDER=local): it looks
 * and behaves like a real card form, but only the card number is sent, to
 * the server's test-card confirmation. Expiry and CVC are checked here only.
 */
export function LocalCardForm({ clientSecret, payLabel, onBusyChange, onSucceeded }: CheckoutFormProps) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [errors, setErrors] = useState<CardErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = trpc.payments.localConfirm.useMutation();
  const [finishing, setFinishing] = useState(false);
  const busy = confirm.isPending || finishing;
  const ids = { group: useId(), number: useId(), expiry: useId(), cvc: useId(), failure: useId() };
  const brand = cardBrandOf(fields.number);

  const update = (field: keyof CardFields, value: string) => {
    setFields((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFailure(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateCard(fields, new Date());
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const firstInvalid = (["number", "expiry", "cvc"] as const).find((field) => found[field]);
      if (firstInvalid) document.getElementById(ids[firstInvalid])?.focus();
      return;
    }
    setFailure(null);
    onBusyChange(true);
    try {
      await confirm.mutateAsync({ clientSecret, cardNumber: digitsOf(fields.number) });
    } catch (error) {
      const message = toUserMessage(error, TOASTS.paymentFailed);
      setFailure(message);
      notify.error(message);
      onBusyChange(false);
      return;
    }
    setFinishing(true);
    try {
      await onSucceeded();
    } finally {
      setFinishing(false);
      onBusyChange(false);
    }
  };

  const describedBy = (field: keyof CardFields) =>
    [errors[field] ? `${ids[field]}-error` : null, failure ? ids.failure : null].filter(Boolean).join(" ") || undefined;

  const cardInput = (field: keyof CardFields) => {
    const { label, placeholder, autoComplete, format } = CARD_INPUTS[field];
    return (
      <input
        id={ids[field]}
        className={styles.input}
        aria-label={label}
        placeholder={placeholder}
        inputMode="numeric"
        autoComplete={autoComplete}
        value={fields[field]}
        onChange={(event) => update(field, format(event.target.value))}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={describedBy(field)}
      />
    );
  };

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label="Card payment">
      <fieldset className={styles.fieldset} disabled={busy}>
        <legend id={ids.group} className={styles.legend}>
          Card information
        </legend>
        <div
          className={`${styles.card} ${errors.number || errors.expiry || errors.cvc || failure ? styles.invalid : ""}`}
        >
          <div className={styles.numberRow}>
            {cardInput("number")}
            <span className={styles.brand} aria-hidden="true" data-brand={brand ?? "none"}>
              {brand ?? <CardGlyph />}
            </span>
          </div>
          <div className={styles.splitRow}>
            {cardInput("expiry")}
            {cardInput("cvc")}
          </div>
        </div>
        {(["number", "expiry", "cvc"] as const).map(
          (field) =>
            errors[field] && (
              <p key={field} id={`${ids[field]}-error`} className={styles.fieldError}>
                {errors[field]}
              </p>
            ),
        )}
      </fieldset>
      {/* Said once: the toast announces it; this line stays on screen and describes the card field. */}
      {failure && (
        <p id={ids.failure} className={styles.failure} data-checkout-failure>
          {failure}
        </p>
      )}
      <Button type="submit" size="lg" block loading={busy}>
        {payLabel}
      </Button>
      <p className={styles.testHint}>
        Test mode: pay with <span className={styles.mono}>4242 4242 4242 4242</span>, any future date and any CVC.
      </p>
    </form>
  );
}

function CardGlyph() {
  return (
    <svg width="26" height="18" viewBox="0 0 26 18" fill="none">
      <rect x="0.75" y="0.75" width="24.5" height="16.5" rx="3" stroke="currentColor" strokeWidth="1.5" />
      <path d="M1 5.5h24" stroke="currentColor" strokeWidth="2.5" />
      <path d="M4.5 12.5h6" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}
