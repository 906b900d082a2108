import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";
import { emailOutboxOf, smsOutboxOf } from "./service";

/** Development helpers (`devOnly` rows): not found in production, whatever ALLOW_DEV_PROVIDERS says (env.ts). */
export const devRouter = router({
  smsOutbox: endpoint("dev.smsOutbox").query(({ ctx, input }) => smsOutboxOf(ctx.db, input.phone)),
  emailOutbox: endpoint("dev.emailOutbox").query(({ ctx, input }) => emailOutboxOf(ctx.db, input.to)),
});
