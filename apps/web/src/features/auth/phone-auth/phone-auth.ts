import type { AuthTokens, PublicConfig } from "@quad/contracts";

/** What the sign-up phone step's two checkboxes agreed to (sent only from sign-up). */
export interface SignupConsents {
  sms: true;
  terms: true;
}

/**
 * One way of proving a phone number: send a code, then trade the code for
 * our own session. The server's configuration picks the implementation
 * (`local`: our SMS codes; `firebase`: the Firebase phone flow).
 */
export interface PhoneAuthFlow {
  /** `phone` is E.164 (+1 and ten digits). Resolves with how long to wait before sending again. */
  sendCode(phone: string): Promise<{ retryAfterSeconds: number }>;
  verifyCode(phone: string, code: string, consents?: SignupConsents): Promise<AuthTokens>;
}

/** A failure whose message is already written for the student. */
export class PhoneAuthError extends Error {
  override readonly name = "PhoneAuthError";
}

export type FirebaseConfig = NonNullable<PublicConfig["firebase"]>;

export interface PhoneAuthFactories {
  local: () => PhoneAuthFlow;
  /** Loaded on demand: the Firebase SDK is only fetched when the server uses it. */
  firebase: (config: FirebaseConfig) => Promise<PhoneAuthFlow>;
}

/** Picks the flow the server is configured for. */
export async function selectPhoneAuthFlow(config: PublicConfig, factories: PhoneAuthFactories): Promise<PhoneAuthFlow> {
  if (config.authProvider === "firebase") {
    if (!config.firebase) throw new Error("The server uses Firebase sign-in but sent no Firebase configuration");
    return factories.firebase(config.firebase);
  }
  return factories.local();
}
