import { SetSmsInput, SmsSettings } from "@quad/contracts";
import { sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { setSmsConsent, settingsOf, smsConsentState } from "./service";

/**
 * The SMS on/off switch of the settings screen, keyed by the signed-in phone
 * (consent is the phone's, and may precede a profile). Mounted under `users`.
 */
export const smsSettingsProcedure = sessionProcedure
  .output(SmsSettings)
  .query(async ({ ctx }) => settingsOf(await smsConsentState(ctx.db, ctx.viewer.phone)));

export const setSmsProcedure = sessionProcedure
  .input(SetSmsInput)
  .output(SmsSettings)
  .mutation(async ({ ctx, input }) => {
    await enforceWriteLimits(ctx.rateLimiter, { name: "users.setSms", ip: ctx.ip, phone: ctx.viewer.phone });
    return setSmsConsent(ctx.db, ctx.viewer.phone, input.enabled, ctx.now());
  });
