import { accountRouter } from "../modules/account/router";
import { adminRouter } from "../modules/admin/router";
import { authRouter } from "../modules/auth/router";
import { configRouter } from "../modules/config/router";
import { devRouter } from "../modules/dev/router";
import { healthProcedure } from "../modules/health/router";
import { paymentsRouter } from "../modules/payments/router";
import { promptsRouter } from "../modules/prompts/router";
import { pushRouter } from "../modules/push/router";
import { safetyRouter } from "../modules/safety/router";
import { schoolEmailRouter } from "../modules/school-email/router";
import { schoolsRouter } from "../modules/schools/router";
import { unlocksRouter } from "../modules/unlocks/router";
import { usersRouter } from "../modules/users/router";
import { votesRouter } from "../modules/votes/router";
import { router } from "./init";

/**
 * One router per module folder: `x.y` is procedure `y` of modules/x/router.ts (schoolEmail is
 * modules/school-email), its schemas and auth in the contracts table's row "x.y". The one
 * procedure without a namespace, `health`, is modules/health/router.ts.
 */
export const appRouter = router({
  health: healthProcedure,
  account: accountRouter,
  admin: adminRouter,
  auth: authRouter,
  config: configRouter,
  dev: devRouter,
  payments: paymentsRouter,
  prompts: promptsRouter,
  push: pushRouter,
  safety: safetyRouter,
  schoolEmail: schoolEmailRouter,
  schools: schoolsRouter,
  unlocks: unlocksRouter,
  users: usersRouter,
  votes: votesRouter,
});

export type AppRouter = typeof appRouter;
