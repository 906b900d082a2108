import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import type { Context } from "../../trpc/context";
import { pushEndpointPolicyFor } from "./endpoint-policy";
import { pushDisabled, subscribeDevice, unsubscribeDevice, type OnPushesDropped } from "./subscriptions";

/**
 * This device's Web Push subscription: limited like every write, acting as the caller's profile.
 * `fallBack` says what becomes of notices left with no device to reach (a device moved, dropped
 * or turned off): the notifications module texts them instead, and trpc/root.ts wires it in, so
 * push never imports the module that sends through it.
 */
export const pushRouter = (fallBack: (ctx: Context) => OnPushesDropped) =>
  router({
    subscribe: endpoint("push.subscribe", { me: true }).mutation(async ({ ctx, input }) => {
      if (!ctx.push) throw pushDisabled();
      return subscribeDevice(ctx.db, ctx.me, input, ctx.now(), {
        policy: pushEndpointPolicyFor(ctx.config),
        onDropped: fallBack(ctx),
      });
    }),
    // Allowed with push off too: a device can always take itself off the list.
    unsubscribe: endpoint("push.unsubscribe", { me: true }).mutation(({ ctx, input }) =>
      unsubscribeDevice(ctx.db, ctx.me, input.endpoint, fallBack(ctx)),
    ),
  });
