import { PushDeviceState, PushSubscriptionInput, PushUnsubscribeInput } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { userIdByPhone } from "../inbox/received";
import { pushDisabled, subscribeDevice, unsubscribeDevice } from "./subscriptions";

/** This device's Web Push subscription: limited like every write, acting as the caller's profile. */
const pushWrite = sessionProcedure.use(async ({ ctx, next, path }) => {
  await enforceWriteLimits(ctx.rateLimiter, { name: path, ip: ctx.ip, phone: ctx.viewer.phone });
  return next({ ctx: { ...ctx, me: await userIdByPhone(ctx.db, ctx.viewer.phone) } });
});

export const pushRouter = router({
  subscribe: pushWrite
    .input(PushSubscriptionInput)
    .output(PushDeviceState)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.push) throw pushDisabled();
      return subscribeDevice(ctx.db, ctx.me, input, ctx.now(), { allowLocalEndpoints: !ctx.config.isProduction });
    }),
  // Allowed with push off too: a device can always take itself off the list.
  unsubscribe: pushWrite
    .input(PushUnsubscribeInput)
    .output(PushDeviceState)
    .mutation(({ ctx, input }) => unsubscribeDevice(ctx.db, ctx.me, input.endpoint)),
});
