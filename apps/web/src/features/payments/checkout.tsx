import { lazy, Suspense } from "react";
import type { PaymentDialogProps } from "./payment-dialog";

const loadPaymentDialog = () => import("./payment-dialog");
const LazyPaymentDialog = lazy(() => loadPaymentDialog().then((m) => ({ default: m.PaymentDialog })));

/** Starts fetching the payment UI's code, e.g. when a product picker opens. */
export function preloadCheckout(): void {
  void loadPaymentDialog();
}

/** The card payment dialog, loaded on demand (its code is not needed until someone pays). */
export function CheckoutDialog(props: PaymentDialogProps) {
  return (
    <Suspense fallback={null}>
      <LazyPaymentDialog {...props} />
    </Suspense>
  );
}
