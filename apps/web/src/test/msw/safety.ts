import type { TrpcResolvers } from "./trpc";

/**
 * Canned answers for safety.*: every block and report goes through. A test
 * that needs a refusal (409 for a second report, 403, 429, a 400 with field
 * messages) overrides the procedure with trpcError; the rules behind them
 * are the server's, tested in apps/server.
 */
export const safetyAnswers: TrpcResolvers = {
  "safety.block": () => ({ ok: true }),
  "safety.report": () => ({ ok: true }),
  "safety.blocks": () => ({ blocked: [] }),
};
