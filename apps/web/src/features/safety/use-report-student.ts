import { errorCodeOf, fieldErrorsOf, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { reportFieldErrorsOf, type ReportFieldErrors, type ReportRequest } from "./report-form";
import { SAFETY_TEXT } from "./texts";

/** How sending a report ended: the dialog closes unless the form needs fixing or it may be retried. */
export type ReportOutcome = { kind: "done" } | { kind: "invalid"; errors: ReportFieldErrors } | { kind: "failed" };

/** safety.report with its toasts. */
export function useReportStudent() {
  const mutation = trpc.safety.report.useMutation();

  const report = async (request: ReportRequest): Promise<ReportOutcome> => {
    try {
      await mutation.mutateAsync(request);
    } catch (error) {
      const code = errorCodeOf(error);
      // Already reported: nothing to fix or retry, so say what the server said and close.
      if (code === "CONFLICT") {
        notify.info(toUserMessage(error, SAFETY_TEXT.reportFailed));
        return { kind: "done" };
      }
      // Not allowed to report (no verified profile, another school, under review): retrying
      // cannot help either, so the server's reason is shown and the dialog closes.
      if (code === "FORBIDDEN") {
        notify.error(toUserMessage(error, SAFETY_TEXT.reportFailed));
        return { kind: "done" };
      }
      const errors = reportFieldErrorsOf(fieldErrorsOf(error));
      if (code === "BAD_REQUEST" && Object.keys(errors).length > 0) return { kind: "invalid", errors };
      notify.error(toUserMessage(error, SAFETY_TEXT.reportFailed));
      return { kind: "failed" };
    }
    notify.success(SAFETY_TEXT.reported);
    return { kind: "done" };
  };

  return { report, reporting: mutation.isPending };
}
