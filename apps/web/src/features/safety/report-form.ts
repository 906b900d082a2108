import { ReportInput, type ReportReason, type SafetyTarget } from "@quad/contracts";
import type { z } from "zod";

export type ReportRequest = z.output<typeof ReportInput>;
export type ReportFieldErrors = Partial<Record<"reason" | "note", string>>;

/**
 * Checks the report form with the contracts schema, so the dialog shows
 * exactly the server's messages ("Choose a reason", "Tell us what
 * happened", the length limit) before anything is sent.
 */
export function parseReportForm(
  target: SafetyTarget,
  reason: ReportReason | null,
  note: string,
): { ok: true; request: ReportRequest } | { ok: false; errors: ReportFieldErrors } {
  const result = ReportInput.safeParse({
    target,
    reason: reason ?? undefined,
    note: note.trim() === "" ? undefined : note,
  });
  if (result.success) return { ok: true, request: result.data };
  const errors: ReportFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === "reason" || field === "note") && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** The first message per field the server attached to a 400, in the form's terms. */
export function reportFieldErrorsOf(fieldErrors: Record<string, string[]>): ReportFieldErrors {
  const errors: ReportFieldErrors = {};
  for (const field of ["reason", "note"] as const) {
    const message = fieldErrors[field]?.[0];
    if (message) errors[field] = message;
  }
  return errors;
}
