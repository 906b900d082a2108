import { router } from "../../trpc/init";
import type { Context } from "../../trpc/context";
import { endpoint } from "../../trpc/endpoints";
import { offerFlashSale } from "./flash-sale";
import { confirmLocalPayment, createPaymentIntent, paymentHistory, type PaymentDeps } from "./service";

const paymentDeps = (ctx: Context): PaymentDeps => ({
  db: ctx.db,
  payments: ctx.payments,
  now: ctx.now,
  candidatePool: ctx.candidatePool,
});

/** Starting and confirming a payment share one write limit, "payments". */
export const paymentsRouter = router({
  createPaymentIntent: endpoint("payments.createPaymentIntent").mutation(async ({ ctx, input }) => {
    return createPaymentIntent(paymentDeps(ctx), ctx.viewer.phone, input.productId);
  }),
  flashSale: endpoint("payments.flashSale", { me: true }).mutation(({ ctx }) =>
    offerFlashSale(ctx.db, ctx.me, ctx.now()),
  ),
  localConfirm: endpoint("payments.localConfirm").mutation(async ({ ctx, input }) => {
    return confirmLocalPayment(paymentDeps(ctx), ctx.viewer.phone, input);
  }),
  history: endpoint("payments.history").query(({ ctx }) => paymentHistory(ctx.db, ctx.viewer.phone)),
});
