import { ERROR_MESSAGES, ProfileUpdateSchema, type MeUser, type SmsSettings } from "@quad/contracts";
import { http, HttpResponse } from "msw";
import { createMeUser } from "./fixtures";
import { defaultTrpcResolvers } from "./handlers";
import { restError } from "./rest";
import { trpcError, trpcHandler, type TrpcResolvers } from "./trpc";

/**
 * A stateful stand-in for the settings screen's procedures: profile
 * updates checked with the contracts' schema, SMS on/off, pause (refused while
 * held for review), preview opt-in, blocks, export and delete.
 */

export interface BlockedStudentFixture {
  userId: string;
  firstName: string;
  photo: string | null;
  blockedAt: string;
}

export interface AccountBackendOptions {
  me?: Partial<MeUser>;
  sms?: Partial<SmsSettings>;
  blocked?: BlockedStudentFixture[];
}

export function createAccountBackend(options: AccountBackendOptions = {}) {
  const state = {
    me: createMeUser({ showInPreview: false, organizations: [], interests: [], emojis: [], ...options.me }),
    sms: { enabled: true, optedOutBySms: false, updatedAt: null, ...options.sms } as SmsSettings,
    blocked: [...(options.blocked ?? [])],
    deleted: false,
    updates: [] as unknown[],
    photoUploads: 0,
  };

  const resolvers: TrpcResolvers = {
    ...defaultTrpcResolvers,
    "users.me": () => (state.deleted ? trpcError("NOT_FOUND", ERROR_MESSAGES.noSuchUser) : state.me),
    "users.update": ({ input }) => {
      state.updates.push(input);
      const parsed = ProfileUpdateSchema.safeParse(input);
      if (!parsed.success) {
        const fieldErrors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".")] ??= []).push(issue.message);
        return trpcError("BAD_REQUEST", ERROR_MESSAGES.invalidInput, fieldErrors);
      }
      const { isVerified: _request, university: _school, ...fields } = parsed.data;
      state.me = { ...state.me, ...fields };
      return { user: state.me };
    },
    "users.smsSettings": () => state.sms,
    "users.setSms": ({ input }) => {
      const { enabled } = input as { enabled: boolean };
      state.sms = { ...state.sms, enabled: enabled && !state.sms.optedOutBySms, updatedAt: new Date().toISOString() };
      return state.sms;
    },
    "account.setPaused": ({ input }) => {
      const { paused } = input as { paused: boolean };
      if (!paused && state.me.heldForReview) return trpcError("FORBIDDEN", ERROR_MESSAGES.heldForReview);
      state.me = { ...state.me, paused };
      return state.me;
    },
    "account.setPreview": ({ input }) => {
      state.me = { ...state.me, showInPreview: (input as { showInPreview: boolean }).showInPreview };
      return state.me;
    },
    "safety.blocks": () => ({ blocked: state.blocked }),
    "safety.unblock": ({ input }) => {
      const { userId } = input as { userId: string };
      state.blocked = state.blocked.filter((student) => student.userId !== userId);
      return { ok: true };
    },
    "account.delete": ({ input }) => {
      if ((input as { confirm?: string }).confirm !== "DELETE")
        return trpcError("BAD_REQUEST", "Type DELETE to confirm");
      state.deleted = true;
      return { ok: true };
    },
  };

  return {
    state,
    resolvers,
    handlers: (overrides: TrpcResolvers = {}) => [
      trpcHandler({ ...resolvers, ...overrides }),
      http.get("*/api/users/export", () =>
        HttpResponse.json({ profile: { id: state.me.id, firstName: state.me.firstName } }),
      ),
      http.patch("*/api/users/update", async ({ request }) => {
        const form = await request.formData();
        if (!form.has("profileImage")) return restError("BAD_REQUEST", "No photo");
        state.photoUploads++;
        state.me = { ...state.me, profileImage: `/api/media/photos/new-${state.photoUploads}.jpg` };
        return HttpResponse.json({ user: state.me });
      }),
    ],
  };
}

export type AccountBackend = ReturnType<typeof createAccountBackend>;
