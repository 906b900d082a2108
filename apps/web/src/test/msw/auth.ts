import { http, HttpResponse } from "msw";
import { ERROR_MESSAGES, SIGN_IN_MESSAGES, TOASTS, type MeUser, type PublicConfig } from "@quad/contracts";
import { createMeUser, createTokens } from "./fixtures";
import { defaultTrpcResolvers } from "./handlers";
import { trpcError, trpcHandler, type TrpcResolvers } from "./trpc";

/** The code the mocked local provider accepts, with the request value its send answered. */
export const TEST_CODE = "123456";
export const TEST_CODE_REQUEST_ID = "TestCodeRequest_0123456789abcdefghijklmnopq";

/** auth.sendCode's answer: a code went out, bound to `codeRequestId`. */
export function codeSent(codeRequestId = TEST_CODE_REQUEST_ID) {
  return { sent: true as const, retryAfterSeconds: 30, codeRequestId };
}

export function createPublicConfig(overrides: Partial<PublicConfig> = {}): PublicConfig {
  return {
    authProvider: "local",
    firebase: null,
    paymentProvider: "local",
    stripePublishableKey: null,
    vapidPublicKey: null,
    ...overrides,
  };
}

/** A profile created by the wizard's first users.update: everything but the photo, not verified yet. */
export function createUnverifiedUser(overrides: Partial<MeUser> = {}): MeUser {
  return createMeUser({ isVerified: false, profileImage: null, ...overrides });
}

/**
 * Sign-in and profile procedures on the happy path of a newcomer: codes go
 * out, TEST_CODE with TEST_CODE_REQUEST_ID verifies, users.me has no profile yet (404), and
 * users.update answers with the unverified profile it was given.
 */
export function authTrpcResolvers(overrides: TrpcResolvers = {}): TrpcResolvers {
  return {
    ...defaultTrpcResolvers,
    "config.public": () => createPublicConfig(),
    "auth.sendCode": () => codeSent(),
    "auth.verifyCode": ({ input }) => {
      const { code, codeRequestId } = input as { code?: string; codeRequestId?: string };
      if (codeRequestId !== TEST_CODE_REQUEST_ID) return trpcError("BAD_REQUEST", SIGN_IN_MESSAGES.unknownRequest);
      return code === TEST_CODE ? createTokens() : trpcError("BAD_REQUEST", TOASTS.invalidCode);
    },
    "auth.firebase": () => createTokens(),
    "users.me": () => trpcError("NOT_FOUND", ERROR_MESSAGES.noSuchUser),
    "users.update": ({ input }) => ({ user: createUnverifiedUser(input as Partial<MeUser>) }),
    ...overrides,
  };
}

export function authTrpcHandler(overrides: TrpcResolvers = {}) {
  return trpcHandler(authTrpcResolvers(overrides));
}

/** What a PATCH /api/users/update carried (text fields, and whether a photo part came along). */
export interface ProfileUpload {
  fields: Record<string, string>;
  hasPhoto: boolean;
}

/** PATCH /api/users/update (multipart): answers with a verified profile unless `respond` says otherwise. */
export function profileUploadHandler(
  respond: (upload: ProfileUpload) => Response | { user: MeUser } | Promise<Response | { user: MeUser }> = () => ({
    user: createMeUser(),
  }),
) {
  return http.patch("*/api/users/update", async ({ request }) => {
    const form = await request.formData();
    const upload: ProfileUpload = { fields: {}, hasPhoto: form.has("profileImage") };
    form.forEach((value, key) => {
      if (typeof value === "string") upload.fields[key] = value;
    });
    const answer = await respond(upload);
    return answer instanceof Response ? answer : HttpResponse.json(answer);
  });
}
