/**
 * Block and report from a card.
 *
 * - useSafetyActions({onBlocked}): `open({target, name})` shows the card menu;
 *   render `dialogs` beside the card.
 * - <CardMoreButton />: the ⋯ button that calls `open` (no data layer).
 */
export { useSafetyActions, type SafetyActions } from "./use-safety-actions";
export { CardMoreButton, type CardMoreButtonProps } from "./card-more-button";
export type { SafetySubject } from "./subject";
