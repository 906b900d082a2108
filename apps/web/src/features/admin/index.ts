/**
 * Moderation (`/admin`, docs/product.md). The page asks `useModerationData()` first:
 * `hidden` means the server answered NOT_FOUND (not an admin) and the page
 * shows its 404; otherwise it renders <ModerationScreen data={…} />.
 */
export { ModerationScreen } from "./moderation-screen";
export { useModerationData, type ModerationData } from "./use-moderation";
