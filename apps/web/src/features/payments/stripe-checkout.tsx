import { TOASTS } from "@quad/contracts";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Appearance, type Stripe } from "@stripe/stripe-js";
import { use, useEffect, useState, type FormEvent } from "react";
import { Button } from "../../components";
import { notify } from "../../lib/toast";
import type { CheckoutFormProps } from "./checkout-form";
import styles from "./local-card-form.module.css";

/**
 * The Stripe Payment Element (PAYMENT_PROVIDER=stripe). This module, and with
 * it Stripe.js, is only loaded when the server sends a publishable key.
 */

const stripeByKey = new Map<string, Promise<Stripe | null>>();

/**
 * One Stripe.js load per key and page: `use()` needs the same promise on every
 * render. A failed load (blocked script, offline) resolves to null.
 */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let pending = stripeByKey.get(publishableKey);
  if (!pending) {
    pending = loadStripe(publishableKey).catch(() => null);
    stripeByKey.set(publishableKey, pending);
  }
  return pending;
}

const appearance: Appearance = {
  theme: "stripe",
  variables: {
    colorPrimary: "#7c3aed",
    colorText: "#17121f",
    colorDanger: "#dc2626",
    borderRadius: "12px",
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    fontSizeBase: "16px",
  },
};

export interface StripeCheckoutProps extends CheckoutFormProps {
  publishableKey: string;
}

/** Suspends while Stripe.js loads (the dialog shows a spinner meanwhile). */
export function StripeCheckout({ publishableKey, ...form }: StripeCheckoutProps) {
  const stripe = use(stripeFor(publishableKey));
  if (!stripe) return <StripeNotLoaded />;
  return (
    <Elements stripe={stripe} options={{ clientSecret: form.clientSecret, appearance }}>
      <StripePaymentForm {...form} />
    </Elements>
  );
}

function StripeNotLoaded() {
  useEffect(() => notify.error(TOASTS.stripeNotLoaded), []);
  return (
    <p className={styles.failure} data-checkout-failure>
      {TOASTS.stripeNotLoaded}
    </p>
  );
}

function StripePaymentForm({ payLabel, onBusyChange, onSucceeded }: Omit<CheckoutFormProps, "clientSecret">) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const fail = (message: string) => {
    setFailure(message);
    notify.error(message);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!stripe || !elements) {
      fail(TOASTS.stripeNotLoaded);
      return;
    }
    setBusy(true);
    setFailure(null);
    onBusyChange(true);
    try {
      const result = await stripe.confirmPayment({ elements, redirect: "if_required" });
      if (result.error) {
        fail(result.error.message ?? TOASTS.paymentFailed);
        return;
      }
      // "processing" still ends in the server's webhook; the purchase shows up once it does.
      if (result.paymentIntent.status === "succeeded" || result.paymentIntent.status === "processing") {
        await onSucceeded();
      } else {
        fail(TOASTS.paymentFailed);
      }
    } catch {
      fail(TOASTS.paymentFailed);
    } finally {
      setBusy(false);
      onBusyChange(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} aria-label="Card payment">
      <PaymentElement options={{ layout: "tabs" }} />
      {/* Said once: the toast announces it; this line stays on screen. */}
      {failure && (
        <p className={styles.failure} data-checkout-failure>
          {failure}
        </p>
      )}
      <Button type="submit" size="lg" block loading={busy} disabled={!stripe || !elements}>
        {payLabel}
      </Button>
    </form>
  );
}
