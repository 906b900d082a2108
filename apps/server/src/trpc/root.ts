import { accountRouter } from "../modules/account/router";
import { adminRouter } from "../modules/admin/router";
import { authRouter } from "../modules/auth/router";
import { publicConfigProcedure } from "../modules/config/router";
import { devRouter } from "../modules/dev/router";
import { healthProcedure } from "../modules/health/router";
import { unlocksRouter, votesForUserProcedure } from "../modules/inbox/router";
import { paymentsRouter } from "../modules/payments/router";
import { pushRouter } from "../modules/push/router";
import { promptsRouter, storeVoteProcedure } from "../modules/rounds/router";
import { safetyRouter } from "../modules/safety/router";
import { schoolEmailRouter } from "../modules/school-email/router";
import { schoolsRouter } from "../modules/schools/router";
import { usersRouter } from "../modules/users/router";
import { router } from "./init";

/** One router per domain, merged here. Procedure paths match the contracts route table. */
export const appRouter = router({
  health: healthProcedure,
  auth: authRouter,
  config: router({ public: publicConfigProcedure }),
  dev: devRouter,
  schools: schoolsRouter,
  users: usersRouter,
  schoolEmail: schoolEmailRouter,
  prompts: promptsRouter,
  votes: router({ store: storeVoteProcedure, forUser: votesForUserProcedure }),
  unlocks: unlocksRouter,
  payments: paymentsRouter,
  push: pushRouter,
  safety: safetyRouter,
  account: accountRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
