import { formatPrice, INLINE, TOASTS, type ProductId } from "@quad/contracts";
import { useQuery } from "@tanstack/react-query";
import { getMutationKey } from "@trpc/react-query";
import { lazy, Suspense, useState } from "react";
import { Button, Icon, Modal, Spinner } from "../../components";
import { errorCodeOf, toUserMessage } from "../../lib/api-error";
import { refreshAfterEvent } from "../../lib/data-layer";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { usePublicConfig } from "../config/use-public-config";
import { LocalCardForm } from "./local-card-form";
import styles from "./payment-dialog.module.css";
import { PriceTag } from "./price-tag";
import { summarizeProduct } from "./products";

// Stripe.js comes only with this chunk, and this chunk only when the server has a publishable key.
const StripeCheckout = lazy(() => import("./stripe-checkout").then((m) => ({ default: m.StripeCheckout })));

export interface PaymentDialogProps {
  productId: ProductId;
  onClose: () => void;
  /** After the payment succeeded and the profile was reloaded. */
  onPaid?: (productId: ProductId) => void;
}

/**
 * The card payment dialog (docs/product.md "In the app"): create a payment intent for
 * the product, confirm it with the configured provider, then "Payment
 * successful!", reload the profile (credits, boost end) and close. The
 * server fulfils the purchase from the provider's confirmation, never from
 * this dialog's word.
 */
export function PaymentDialog({ productId, onClose, onPaid }: PaymentDialogProps) {
  const product = summarizeProduct(productId);
  const utils = trpc.useUtils();
  const config = usePublicConfig();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);

  // A query rather than a mutation: one intent per opening (and per retry), deduplicated across re-renders.
  const intent = useQuery({
    queryKey: [...getMutationKey(trpc.payments.createPaymentIntent), { input: { productId }, attempt }],
    queryFn: () =>
      utils.client.payments.createPaymentIntent.mutate({ productId }).catch((error: unknown) => {
        // A refusal (e.g. a boost for a profile nobody sees) is said in the dialog, once.
        if (errorCodeOf(error) !== "FORBIDDEN") notify.error(toUserMessage(error, TOASTS.createPaymentIntentFailed));
        throw error;
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

  const succeeded = async () => {
    notify.success(TOASTS.paymentSuccessful);
    await refreshAfterEvent("paymentConfirmed");
    onPaid?.(productId);
    onClose();
  };

  // The server's amount is what is charged (a flash sale may have ended); the catalogue's until it answers.
  const priceCents = intent.data?.amountCents ?? product.priceCents;
  const originalPriceCents =
    product.originalPriceCents && product.originalPriceCents > priceCents ? product.originalPriceCents : undefined;
  const payLabel = `Pay ${formatPrice(priceCents)}`;
  // The server refuses this purchase (its message says why): trying again would not help.
  const refusal =
    errorCodeOf(intent.error) === "FORBIDDEN" ? toUserMessage(intent.error, INLINE.loadPaymentDetailsFailed) : null;
  const failed = intent.isError || config.isError;
  const ready = intent.data && config.data;

  return (
    <Modal open onClose={onClose} title="Checkout" size="sm" dismissible={!busy} hideCloseButton={busy}>
      <div className={styles.layout}>
        <div className={styles.summary}>
          <span className={styles.productIcon} aria-hidden="true">
            <Icon name={product.kind === "boost" ? "rocket" : "unlock"} size={22} />
          </span>
          <span className={styles.productText}>
            <span className={styles.productTitle}>{product.title}</span>
            <span className={styles.productDetail}>{product.detail}</span>
          </span>
          <PriceTag priceCents={priceCents} originalPriceCents={originalPriceCents} showPercentOff={false} />
        </div>

        {refusal ? (
          <div className={styles.loadFailed} role="alert">
            <p>{refusal}</p>
          </div>
        ) : failed ? (
          <div className={styles.loadFailed} role="alert">
            <p>{INLINE.loadPaymentDetailsFailed}</p>
            <Button
              variant="secondary"
              icon={<Icon name="refresh" size={18} />}
              onClick={() => {
                if (config.isError) void config.refetch();
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </Button>
          </div>
        ) : !ready ? (
          <PaymentLoading />
        ) : (
          <Suspense fallback={<PaymentLoading />}>
            {config.data.stripePublishableKey ? (
              <StripeCheckout
                publishableKey={config.data.stripePublishableKey}
                clientSecret={intent.data.clientSecret}
                payLabel={payLabel}
                onBusyChange={setBusy}
                onSucceeded={succeeded}
              />
            ) : (
              <LocalCardForm
                clientSecret={intent.data.clientSecret}
                payLabel={payLabel}
                onBusyChange={setBusy}
                onSucceeded={succeeded}
              />
            )}
          </Suspense>
        )}

        <p className={styles.footnote}>
          <span className={styles.footnoteIcon}>
            <Icon name="shield" size={14} />
          </span>
          Secure card payment. Payments are final; no refunds.
        </p>
      </div>
    </Modal>
  );
}

function PaymentLoading() {
  return (
    <div className={styles.loading}>
      <Spinner label="Loading payment details" />
    </div>
  );
}
