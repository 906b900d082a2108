import type { SafetyTarget } from "@quad/contracts";

/** Whom a block or report is about, and the first name the dialogs call them by. */
export interface SafetySubject {
  target: SafetyTarget;
  name: string;
}
