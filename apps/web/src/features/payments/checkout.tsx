import type { ProductId } from "@quad/contracts";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
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

/**
 * A product picker's way to pay: the payment code is fetched while the
 * picker is open, `pay(id)` opens the checkout over it, and after a
 * successful payment the checkout closes and `onPaid` runs.
 */
export function useCheckout(
  pickerOpen: boolean,
  onPaid: () => void,
): { pay: (productId: ProductId) => void; checkout: ReactNode } {
  const [paying, setPaying] = useState<ProductId | null>(null);

  useEffect(() => {
    if (pickerOpen) preloadCheckout();
  }, [pickerOpen]);

  const checkout = paying && (
    <CheckoutDialog
      productId={paying}
      onClose={() => setPaying(null)}
      onPaid={() => {
        setPaying(null);
        onPaid();
      }}
    />
  );
  return { pay: setPaying, checkout };
}
