import { MeUser, ProfileUpdateSchema, UpdateUserResult } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { setSmsProcedure, smsSettingsProcedure } from "../consents/router";
import { getMe, updateProfile } from "./profile";

export const usersRouter = router({
  me: sessionProcedure.output(MeUser).query(({ ctx }) => getMe(ctx.db, ctx.viewer.phone)),
  /** Profile fields as JSON; the photo comes through the multipart REST route, which calls the same service. */
  update: sessionProcedure
    .input(ProfileUpdateSchema)
    .output(UpdateUserResult)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "users.update", ip: ctx.ip, phone: ctx.viewer.phone });
      const user = await updateProfile(ctx, ctx.viewer, input);
      ctx.candidatePool.invalidate(user.university ?? undefined);
      return { user };
    }),
  /** Vote notifications by SMS on or off: written as a consent record (source "settings"). */
  smsSettings: smsSettingsProcedure,
  setSms: setSmsProcedure,
});
