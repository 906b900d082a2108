/**
 * Block and report from a card.
 *
 * - useSafetyActions({onBlocked}): `open({target, name})` shows the card menu;
 *   render `dialogs` beside the card.
 * - <CardMoreButton />: the ⋯ button that calls `open` (no data layer).
 */
export { useSafetyActions } from "./use-safety-actions";
export { CardMoreButton } from "./card-more-button";
