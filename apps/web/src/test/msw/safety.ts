import { ERROR_MESSAGES, ReportInput, type SafetyTarget } from "@quad/contracts";
import { trpcError, type TrpcResolvers } from "./trpc";

/** The server's answer to a second report of the same student. */
export const ALREADY_REPORTED = ERROR_MESSAGES.alreadyReported;

export interface SafetyBackendOptions {
  /** Called after a block went through (the rounds fake closes its open round here, as the server does). */
  onBlock?: (target: SafetyTarget) => void;
}

/**
 * A stand-in for safety.block and safety.report following the server's rules:
 * a report's reason and note checked with the contracts schema (400 with
 * field messages), one report per reporter and target (409 with the
 * server's message).
 */
export function createSafetyBackend(options: SafetyBackendOptions = {}) {
  const state = {
    blocks: [] as SafetyTarget[],
    reports: [] as { target: SafetyTarget; reason: string; note?: string }[],
  };
  const key = (target: SafetyTarget) => ("userId" in target ? target.userId : target.voteCardId);
  // The rounds and inbox fakes use readable ids ("cand-female-0"), so a target is only checked for its shape.
  const targetOf = (input: unknown): SafetyTarget | null => {
    const target = (input ?? {}) as Record<string, unknown>;
    if (typeof target.userId === "string") return { userId: target.userId };
    if (typeof target.voteCardId === "string") return { voteCardId: target.voteCardId };
    return null;
  };
  const ANY_TARGET = { userId: "00000000-0000-4000-8000-000000000000" };

  const invalid = (issues: { path: PropertyKey[]; message: string }[]) => {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of issues) (fieldErrors[String(issue.path[0] ?? "")] ??= []).push(issue.message);
    return trpcError("BAD_REQUEST", "Invalid input", fieldErrors);
  };

  const resolvers: TrpcResolvers = {
    "safety.block": ({ input }) => {
      const target = targetOf(input);
      if (!target) return trpcError("BAD_REQUEST", "Invalid input");
      state.blocks.push(target);
      options.onBlock?.(target);
      return { ok: true };
    },
    "safety.report": ({ input }) => {
      const { target: rawTarget, ...rest } = (input ?? {}) as Record<string, unknown>;
      const target = targetOf(rawTarget);
      if (!target) return trpcError("BAD_REQUEST", "Invalid input");
      // Reason and note by the contracts' rules, with the messages the server sends.
      const parsed = ReportInput.safeParse({ ...rest, target: ANY_TARGET });
      if (!parsed.success) return invalid(parsed.error.issues);
      if (state.reports.some((report) => key(report.target) === key(target)))
        return trpcError("CONFLICT", ALREADY_REPORTED);
      state.reports.push({ ...parsed.data, target });
      return { ok: true };
    },
    "safety.blocks": () => ({ blocked: [] }),
  };

  return { state, resolvers };
}
