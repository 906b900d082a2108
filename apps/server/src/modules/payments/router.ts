import {
  CreatePaymentIntentInput,
  CreatePaymentIntentResult,
  FlashSaleOffer,
  LocalConfirmInput,
  LocalConfirmResult,
  PaymentHistory,
} from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import type { Context } from "../../trpc/context";
import { enforceWriteLimits } from "../../trpc/limits";
import { userIdByPhone } from "../inbox/received";
import { offerFlashSale } from "./flash-sale";
import { confirmLocalPayment, createPaymentIntent, paymentHistory, type PaymentDeps } from "./service";

const paymentDeps = (ctx: Context): PaymentDeps => ({ db: ctx.db, payments: ctx.payments, now: ctx.now });

export const paymentsRouter = router({
  createPaymentIntent: sessionProcedure
    .input(CreatePaymentIntentInput)
    .output(CreatePaymentIntentResult)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "payments", ip: ctx.ip, phone: ctx.viewer.phone });
      return createPaymentIntent(paymentDeps(ctx), ctx.viewer.phone, input.productId);
    }),
  flashSale: sessionProcedure.output(FlashSaleOffer).mutation(async ({ ctx }) => {
    await enforceWriteLimits(ctx.rateLimiter, { name: "payments.flashSale", ip: ctx.ip, phone: ctx.viewer.phone });
    return offerFlashSale(ctx.db, await userIdByPhone(ctx.db, ctx.viewer.phone), ctx.now());
  }),
  localConfirm: sessionProcedure
    .input(LocalConfirmInput)
    .output(LocalConfirmResult)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "payments", ip: ctx.ip, phone: ctx.viewer.phone });
      const result = await confirmLocalPayment(paymentDeps(ctx), ctx.viewer.phone, input);
      // A boost changes how often the student is drawn.
      ctx.candidatePool.invalidate();
      return result;
    }),
  history: sessionProcedure.output(PaymentHistory).query(({ ctx }) => paymentHistory(ctx.db, ctx.viewer.phone)),
});
