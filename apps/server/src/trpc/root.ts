import { accountRouter } from "../modules/account/router";
import { adminRouter } from "../modules/admin/router";
import { authRouter } from "../modules/auth/router";
import { configRouter } from "../modules/config/router";
import { devRouter } from "../modules/dev/router";
import { inboxRouter } from "../modules/inbox/router";
import { liveRouter } from "../modules/live/router";
import { healthRouter } from "../modules/health/router";
import { paymentsRouter } from "../modules/payments/router";
import { textInsteadOfPush } from "../modules/notifications/push-fallback";
import { pushRouter } from "../modules/push/router";
import { roundsRouter } from "../modules/rounds/router";
import { safetyRouter } from "../modules/safety/router";
import { schoolEmailRouter } from "../modules/school-email/router";
import { schoolsRouter } from "../modules/schools/router";
import { usersRouter } from "../modules/users/router";
import { router } from "./init";

/**
 * One router per module folder: `x.y` is procedure `y` of modules/x/router.ts (schoolEmail is
 * modules/school-email), its schemas and auth in the contracts table's row "x.y".
 */
export const appRouter = router({
  account: accountRouter,
  admin: adminRouter,
  auth: authRouter,
  config: configRouter,
  dev: devRouter,
  health: healthRouter,
  inbox: inboxRouter,
  live: liveRouter,
  payments: paymentsRouter,
  push: pushRouter((ctx) => textInsteadOfPush({ db: ctx.db, now: ctx.now, publicUrl: ctx.config.PUBLIC_URL })),
  rounds: roundsRouter,
  safety: safetyRouter,
  schoolEmail: schoolEmailRouter,
  schools: schoolsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
