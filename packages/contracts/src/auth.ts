import { z } from "zod";
import { E164PhoneSchema } from "./phone-numbers";
import { CodeRequestIdSchema, VerificationCodeSchema } from "./validation";
import { Int4Count, IsoDateTime } from "./common";
import { VALIDATION } from "./messages";
import { type EndpointDef, route } from "./endpoint";

export const SendCodeInput = z.object({ phone: E164PhoneSchema }).strict();
/** `codeRequestId` binds the code to this request: the check must present it (only its hash is stored). */
export const SendCodeResult = z.object({
  sent: z.literal(true),
  retryAfterSeconds: Int4Count,
  codeRequestId: CodeRequestIdSchema,
});

/**
 * What the sign-up phone step's two checkboxes agreed to. Recorded with the
 * consent texts' versions once the code proves the phone is theirs. Optional
 * in the inputs (a returning student signs in without them), required by the
 * server for a phone that has no account yet.
 */
export const SignupConsents = z
  .object({
    sms: z.literal(true, { error: VALIDATION.smsConsent }),
    terms: z.literal(true, { error: VALIDATION.acceptPrivacy }),
  })
  .strict();

/** The field errors of a new account's sign-in that carried no consents: the phone step's own messages. */
export const missingSignupConsents = (): Record<string, string[]> => ({
  "consents.sms": [VALIDATION.smsConsent],
  "consents.terms": [VALIDATION.acceptPrivacy],
});

export const VerifyCodeInput = z
  .object({
    phone: E164PhoneSchema,
    code: VerificationCodeSchema,
    codeRequestId: CodeRequestIdSchema,
    consents: SignupConsents.optional(),
  })
  .strict();
/** A short-lived bearer token and a rotating refresh token (docs/product.md "Signing up and signing in"). */
export const AuthTokens = z.object({
  token: z.string(),
  refreshToken: z.string(),
  expiresAt: IsoDateTime,
});
export type AuthTokens = z.infer<typeof AuthTokens>;

export const RefreshInput = z.object({ refreshToken: z.string().min(1).max(512) }).strict();
export const LogoutInput = z.object({ refreshToken: z.string().min(1).max(512) }).strict();
export const LogoutResult = z.object({ ok: z.literal(true) });

/** Firebase provider: the client trades a Firebase ID token for our session. */
export const FirebaseSignInInput = z
  .object({ idToken: z.string().min(1).max(8192), consents: SignupConsents.optional() })
  .strict();

/** The auth procedures' rows of the endpoint table (merged in routes.ts). */
export const authRoutes = {
  "auth.sendCode": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/send-code",
    auth: false,
    tags: ["auth"],
    summary: "Send a 6-digit sign-in code by SMS",
    input: SendCodeInput,
    output: SendCodeResult,
  }),
  "auth.verifyCode": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/verify-code",
    auth: false,
    tags: ["auth"],
    summary: "Trade a code for a session",
    input: VerifyCodeInput,
    output: AuthTokens,
  }),
  "auth.refresh": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/refresh",
    auth: false,
    tags: ["auth"],
    summary: "Rotate the session's token pair",
    input: RefreshInput,
    output: AuthTokens,
  }),
  "auth.logout": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/logout",
    auth: false,
    tags: ["auth"],
    summary: "Revoke the session",
    input: LogoutInput,
    output: LogoutResult,
  }),
  "auth.firebase": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/firebase",
    auth: false,
    tags: ["auth"],
    summary: "Trade a Firebase ID token for a session (AUTH_PROVIDER=firebase)",
    input: FirebaseSignInInput,
    output: AuthTokens,
  }),
} as const satisfies Record<`auth.${string}`, EndpointDef>;
