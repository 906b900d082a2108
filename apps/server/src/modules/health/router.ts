import { serviceUnavailable, unavailableError } from "../../errors";
import { endpoint } from "../../trpc/endpoints";
import { databaseAnswers } from "./service";

/**
 * Readiness: a load balancer or supervisor asks often and must get an answer
 * quickly, so the database gets this long to answer `select 1` before the
 * server says 503 itself (the query may still finish; nothing waits for it).
 */
export const HEALTH_DATABASE_TIMEOUT_MS = 800;

/** Answers only when the database does, and within about a second either way. */
export const healthProcedure = endpoint("health").query(async ({ ctx }) => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(serviceUnavailable()), HEALTH_DATABASE_TIMEOUT_MS);
  });
  // Settled even when the timer wins.
  const query = databaseAnswers(ctx.db);
  query.catch(() => {});
  try {
    await Promise.race([query, timedOut]);
  } catch (error) {
    throw unavailableError(error) ?? error;
  } finally {
    clearTimeout(timer);
  }
  return { status: "ok" as const, database: ctx.dbKind };
});
