import { AppError } from "../../errors";
import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { enforceLimit, WRITE_LIMITS } from "../../trpc/limits";
import type { Context } from "../../trpc/context";
import { missingConsentsRefusal, recordSignupConsents } from "../consents/service";
import { sendCode, verifyCode, type CodeDeps } from "./codes";
import { endSession, rotateSession, startSession, type RevokingSessionDeps } from "./sessions";

const codeDeps = (ctx: Context): CodeDeps => ({
  db: ctx.db,
  sms: ctx.sms,
  rateLimiter: ctx.rateLimiter,
  now: ctx.now,
  secret: ctx.jwtSecret,
  smsHourlyBudget: ctx.config.SMS_HOURLY_BUDGET,
  log: ctx.log,
  generateCode: ctx.generateCode,
  appHost: ctx.config.PUBLIC_URL ? new URL(ctx.config.PUBLIC_URL).hostname : undefined,
});
const sessionDeps = (ctx: Context): RevokingSessionDeps => ({
  db: ctx.db,
  now: ctx.now,
  secret: ctx.jwtSecret,
  revocations: ctx.sessionRevocations,
});

/** Each sign-in flow exists only under its configured provider; checked after the write limit. */
const local = {
  guard(ctx: Context) {
    if (ctx.config.AUTH_PROVIDER !== "local")
      throw new AppError("NOT_FOUND", "Sign in with the app's phone verification.");
  },
} as const;

/**
 * Sign-in (docs/product.md "Signing up and signing in"). The local provider sends our
 * own SMS codes; the firebase provider trades a verified Firebase ID token.
 * Either way the session is ours: a short-lived token and a rotating refresh token.
 * Every sign-in write is limited per address (and per phone where the input names one).
 */
export const authRouter = router({
  sendCode: endpoint("auth.sendCode", local).mutation(async ({ ctx, input }) => {
    const { retryAfterSeconds, codeRequestId } = await sendCode(codeDeps(ctx), input.phone, ctx.ip);
    return { sent: true as const, retryAfterSeconds, codeRequestId };
  }),
  /**
   * Signs the person in whether or not a profile exists yet; /users/me tells which. A phone with no
   * account must bring the sign-up's consents; returning students sign in without them.
   */
  verifyCode: endpoint("auth.verifyCode", local).mutation(async ({ ctx, input }) => {
    // The address was counted on the way in; the phone is known only now. Counted per phone
    // and address: a stranger's checks must not use up the owner's.
    await enforceLimit(ctx.rateLimiter, `auth.verifyCode:phone:${input.phone}:ip:${ctx.ip}`, WRITE_LIMITS.perStudent);
    await verifyCode(codeDeps(ctx), input.phone, input.code, input.codeRequestId, (tx) =>
      missingConsentsRefusal(tx, input.phone, input.consents),
    );
    if (input.consents) await recordSignupConsents(ctx.db, input.phone, ctx.now());
    return startSession(sessionDeps(ctx), input.phone);
  }),
  firebase: endpoint("auth.firebase").mutation(async ({ ctx, input }) => {
    if (!ctx.firebaseVerifier) throw new AppError("NOT_FOUND", "Firebase sign-in is not enabled.");
    const { phone } = await ctx.firebaseVerifier(input.idToken);
    const refused = await missingConsentsRefusal(ctx.db, phone, input.consents);
    if (refused) throw refused;
    if (input.consents) await recordSignupConsents(ctx.db, phone, ctx.now());
    return startSession(sessionDeps(ctx), phone);
  }),
  refresh: endpoint("auth.refresh").mutation(({ ctx, input }) => rotateSession(sessionDeps(ctx), input.refreshToken)),
  logout: endpoint("auth.logout").mutation(async ({ ctx, input }) => {
    await endSession(sessionDeps(ctx), input.refreshToken);
    return { ok: true as const };
  }),
});
