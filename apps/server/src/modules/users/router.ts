import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { setSmsConsent, settingsOf, smsConsentState } from "../consents/service";
import { getMe, updateProfile } from "./profile";

export const usersRouter = router({
  me: endpoint("users.me").query(({ ctx }) => getMe(ctx.db, ctx.viewer.phone)),
  /** Profile fields as JSON; the photo comes through the multipart REST route, which calls the same service. */
  update: endpoint("users.update").mutation(async ({ ctx, input }) => {
    return { user: await updateProfile(ctx, ctx.viewer, input) };
  }),
  /**
   * Vote notifications by SMS on or off, keyed by the signed-in phone (consent is the phone's,
   * and may precede a profile): written as a consent record (source "settings").
   */
  smsSettings: endpoint("users.smsSettings").query(async ({ ctx }) =>
    settingsOf(await smsConsentState(ctx.db, ctx.viewer.phone)),
  ),
  setSms: endpoint("users.setSms").mutation(({ ctx, input }) =>
    setSmsConsent(ctx.db, ctx.viewer.phone, input.enabled, ctx.now()),
  ),
});
