import { TOASTS } from "@quad/contracts";
import { notify } from "../lib/toast";

/** "No token found. Please log in." (the guards load this only when they say it). */
export const sayNoToken = () => notify.error(TOASTS.noToken);
