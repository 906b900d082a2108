import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import type { Context } from "../../trpc/context";
import { textInsteadOfPush } from "../notifications/push-fallback";
import { pushEndpointPolicyFor } from "./endpoint-policy";
import { pushDisabled, subscribeDevice, unsubscribeDevice } from "./subscriptions";

/** A notice left with no device to reach (a device moved, dropped or turned off) is texted instead. */
const fallBack = (ctx: Context) => textInsteadOfPush({ db: ctx.db, now: ctx.now, publicUrl: ctx.config.PUBLIC_URL });

/** This device's Web Push subscription: limited like every write, acting as the caller's profile. */
export const pushRouter = router({
  subscribe: endpoint("push.subscribe", { writeLimit: true, me: true }).mutation(async ({ ctx, input }) => {
    if (!ctx.push) throw pushDisabled();
    return subscribeDevice(ctx.db, ctx.me, input, ctx.now(), {
      policy: pushEndpointPolicyFor(ctx.config),
      onDropped: fallBack(ctx),
    });
  }),
  // Allowed with push off too: a device can always take itself off the list.
  unsubscribe: endpoint("push.unsubscribe", { writeLimit: true, me: true }).mutation(({ ctx, input }) =>
    unsubscribeDevice(ctx.db, ctx.me, input.endpoint, fallBack(ctx)),
  ),
});
