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

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Card payment">
      <fieldset className={styles.fieldset} disabled={busy}>
        <legend id={ids.group} className={styles.legend}>
          Card information
        </legend>
        <div className={`${styles.card} ${errors.number || errors.expiry || errors.cvc || failure ? styles.invalid : ""}`}>
          <div className={styles.numberRow}>
            <input
              id={ids.number}
              className={styles.input}
              aria-label="Card number"
              placeholder="1234 1234 1234 1234"
              inputMode="numeric"
              autoComplete="cc-number"
              value={fields.number}
              onChange={(event) => update("number", formatCardNumber(event.target.value))}
              aria-invalid={errors.number ? true : undefined}
              aria-describedby={describedBy("number")}
            />
            <span className={styles.brand} aria-hidden="true" data-brand={brand ?? "none"}>
              {brand ?? <CardGlyph />}
            </span>
          </div>
          <div className={styles.splitRow}>
            <input
              id={ids.expiry}
              className={styles.input}
              aria-label="Expiration date (MM / YY)"
              placeholder="MM / YY"
              inputMode="numeric"
              autoComplete="cc-exp"
              value={fields.expiry}
              onChange={(event) => update("expiry", formatExpiry(event.target.value))}
              aria-invalid={errors.expiry ? true : undefined}
              aria-describedby={describedBy("expiry")}
            />
            <input
              id={ids.cvc}
              className={styles.input}
              aria-label="Security code (CVC)"
              placeholder="CVC"
              inputMode="numeric"
              autoComplete="cc-csc"
              value={fields.cvc}
              onChange={(event) => update("cvc", formatCvc(event.target.value))}
              aria-invalid={errors.cvc ? true : undefined}
              aria-describedby={describedBy("cvc")}
            />
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
      {failure && (
        <p id={ids.failure} className={styles.failure} role="alert">
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
