import { SIGN_IN_MESSAGES } from "@quad/contracts";
import type { TrpcClient } from "../../../lib/trpc";
import { PhoneAuthError, type PhoneAuthFlow } from "./phone-auth";

/** The two procedures the local flow calls (the app's tRPC client, or a test's stand-in). */
export interface LocalCodeClient {
  auth: {
    sendCode: Pick<TrpcClient["auth"]["sendCode"], "mutate">;
    verifyCode: Pick<TrpcClient["auth"]["verifyCode"], "mutate">;
  };
}

/**
 * The `local` provider: the server texts its own 6-digit codes. Each code is
 * bound to the request that asked for it: the flow keeps the `codeRequestId`
 * of the latest code sent and presents it with the code (a resend's replaces
 * it), so only this browser can check the code it asked for.
 */
export function createLocalPhoneAuth(client: LocalCodeClient): PhoneAuthFlow {
  let pending: { phone: string; codeRequestId: string } | null = null;
  return {
    async sendCode(phone) {
      const { retryAfterSeconds, codeRequestId } = await client.auth.sendCode.mutate({ phone });
      pending = { phone, codeRequestId };
      return { retryAfterSeconds };
    },
    async verifyCode(phone, code, consents) {
      if (!pending || pending.phone !== phone) throw new PhoneAuthError(SIGN_IN_MESSAGES.unknownRequest);
      const tokens = await client.auth.verifyCode.mutate({
        phone,
        code,
        codeRequestId: pending.codeRequestId,
        ...(consents ? { consents } : {}),
      });
      pending = null;
      return tokens;
    },
  };
}
