/**
 * Payments and the products they buy: unlock packages, the flash sale, boosts
 * and the card payment dialog (local test cards or the Stripe Payment Element).
 * The payment UI's code and Stripe.js load only when someone goes to pay.
 */
export { UnlockPackagesDialog } from "./unlock-packages-dialog";
export { FlashSaleDialog } from "./flash-sale-dialog";
export { BoostDialog } from "./boost-dialog";
export { useBoostRemaining } from "./boost-remaining";
export { UNLOCK_REVEALS } from "./texts";
export { unlockCountLabel } from "./products";
