import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { pushDisabled, subscribeDevice, unsubscribeDevice } from "./subscriptions";

/** This device's Web Push subscription: limited like every write, acting as the caller's profile. */
export const pushRouter = router({
  subscribe: endpoint("push.subscribe", { writeLimit: true, me: true }).mutation(async ({ ctx, input }) => {
    if (!ctx.push) throw pushDisabled();
    return subscribeDevice(ctx.db, ctx.me, input, ctx.now(), { allowLocalEndpoints: !ctx.config.isProduction });
  }),
  // Allowed with push off too: a device can always take itself off the list.
  unsubscribe: endpoint("push.unsubscribe", { writeLimit: true, me: true }).mutation(({ ctx, input }) =>
    unsubscribeDevice(ctx.db, ctx.me, input.endpoint),
  ),
});
