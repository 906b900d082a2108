import { z } from "zod";
import { E164PhoneSchema } from "./phone-numbers";
import { CodeRequestIdSchema, VerificationCodeSchema } from "./validation";
import { Int4Count, IsoDateTime } from "./common";
import { VALIDATION } from "./messages";

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

/** What the web client needs to know about the server's configuration; nothing secret. */
export const PublicConfig = z.object({
  authProvider: z.enum(["local", "firebase"]),
  firebase: z
    .object({ apiKey: z.string(), authDomain: z.string(), projectId: z.string(), appId: z.string().optional() })
    .nullable(),
  paymentProvider: z.enum(["local", "stripe"]),
  stripePublishableKey: z.string().nullable(),
  /** The VAPID public key browsers subscribe with; null when push is off on this server. */
  vapidPublicKey: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
