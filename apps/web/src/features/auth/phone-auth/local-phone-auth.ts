import type { TrpcClient } from "../../../lib/trpc";
import type { PhoneAuthFlow } from "./phone-auth";

/** The `local` provider: the server texts its own 6-digit codes. */
export function createLocalPhoneAuth(client: TrpcClient): PhoneAuthFlow {
  return {
    sendCode: (phone) => client.auth.sendCode.mutate({ phone }),
    verifyCode: (phone, code, consents) =>
      client.auth.verifyCode.mutate({ phone, code, ...(consents ? { consents } : {}) }),
  };
}
