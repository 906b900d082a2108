import { authRouter } from "../modules/auth/router";
import { publicConfigProcedure } from "../modules/config/router";
import { devRouter } from "../modules/dev/router";
import { healthProcedure } from "../modules/health/router";
import { promptsRouter, votesRouter } from "../modules/rounds/router";
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
  prompts: promptsRouter,
  votes: votesRouter,
});

export type AppRouter = typeof appRouter;
