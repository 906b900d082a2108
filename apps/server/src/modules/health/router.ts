import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";
import { databaseAnswers, readiness, withinHealthTimeout } from "./service";

/** For supervisors and load balancers: none is limited, none needs a session. */
export const healthRouter = router({
  /** Answers only when the database does, and within about a second either way. */
  status: endpoint("health.status").query(async ({ ctx }) => {
    await withinHealthTimeout(databaseAnswers(ctx.db));
    return { status: "ok" as const, database: ctx.dbKind };
  }),
  live: endpoint("health.live").query(() => ({ status: "ok" as const })),
  ready: endpoint("health.ready").query(async ({ ctx }) => {
    await readiness(ctx.db, ctx.lifecycle);
    return { status: "ready" as const, database: ctx.dbKind };
  }),
});
