/** What the payment dialog gives each provider's form (local card form, Stripe Payment Element). */
export interface CheckoutFormProps {
  clientSecret: string;
  /** The submit button's label, e.g. "Pay $7.99". */
  payLabel: string;
  /** True while a confirmation is in flight: the dialog cannot be closed then. */
  onBusyChange: (busy: boolean) => void;
  /** The provider confirmed the payment; the server fulfils it on its own. */
  onSucceeded: () => Promise<void>;
}
