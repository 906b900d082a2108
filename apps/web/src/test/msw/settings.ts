import type { MeUser, SmsSettings } from "@quad/contracts";
import { http, HttpResponse } from "msw";
import { createMeUser } from "./fixtures";
import { defaultTrpcResolvers } from "./handlers";
import { recording, trpcHandler, type ProcedureOutput, type TrpcResolvers } from "./trpc";

/**
 * Canned answers for the settings screen, whose sections call users.*,
 * account.* and safety.*: the student `me`, their SMS setting and block
 * list, each write answered as gone through (the profile with the change
 * applied). A test needing another answer, or a refusal, passes
 * `overrides`; `sent(path)` is what the UI sent. The rules behind the
 * answers (validation, a held profile staying paused, STOP) are the
 * server's, tested in apps/server.
 */

export interface SettingsAnswersOptions {
  me?: Partial<MeUser>;
  sms?: Partial<SmsSettings>;
  blocked?: ProcedureOutput<"safety.blocks">["blocked"];
  overrides?: TrpcResolvers;
}

export function settingsAnswers(options: SettingsAnswersOptions = {}) {
  const me = createMeUser({ showInPreview: false, organizations: [], interests: [], emojis: [], ...options.me });
  const sms: SmsSettings = { enabled: true, optedOutBySms: false, updatedAt: null, ...options.sms };
  const { resolvers, sent } = recording({
    ...defaultTrpcResolvers,
    "users.me": () => me,
    "users.update": ({ input }) => ({ user: { ...me, ...(input as Partial<MeUser>) } }),
    "users.smsSettings": () => sms,
    "users.setSms": ({ input }) => ({
      ...sms,
      ...(input as { enabled: boolean }),
      updatedAt: new Date().toISOString(),
    }),
    "account.pause": ({ input }) => ({ ...me, ...(input as { paused: boolean }) }),
    "account.preview": ({ input }) => ({ ...me, ...(input as { showInPreview: boolean }) }),
    "safety.blocks": () => ({ blocked: options.blocked ?? [] }),
    "safety.unblock": () => ({ ok: true }),
    "account.delete": () => ({ ok: true }),
    ...options.overrides,
  });

  return {
    me,
    sent,
    handlers: [
      trpcHandler(resolvers),
      http.get("*/api/users/export", () => HttpResponse.json({ profile: { id: me.id, firstName: me.firstName } })),
      http.patch("*/api/users/update", () =>
        HttpResponse.json({ user: { ...me, profileImage: "/api/media/photos/new-1.jpg" } }),
      ),
    ],
  };
}
