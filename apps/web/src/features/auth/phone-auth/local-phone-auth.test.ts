import { SIGN_IN_MESSAGES } from "@quad/contracts";
import { describe, expect, it, vi } from "vitest";
import { createTokens } from "../../../test/msw";
import { createLocalPhoneAuth } from "./local-phone-auth";
import { PhoneAuthError } from "./phone-auth";

const FIRST = "F".repeat(43);
const SECOND = "S".repeat(43);

function client(ids: string[]) {
  const sendCode = vi.fn(() =>
    Promise.resolve({ sent: true as const, retryAfterSeconds: 30, codeRequestId: ids.shift()! }),
  );
  const verifyCode = vi.fn((_input: unknown) => Promise.resolve(createTokens()));
  return {
    calls: { sendCode, verifyCode },
    client: { auth: { sendCode: { mutate: sendCode }, verifyCode: { mutate: verifyCode } } },
  };
}

describe("the local phone flow", () => {
  it("presents the codeRequestId of the latest code sent, with the consents when given", async () => {
    const { client: c, calls } = client([FIRST, SECOND]);
    const flow = createLocalPhoneAuth(c);
    expect(await flow.sendCode("+12025550123")).toEqual({ retryAfterSeconds: 30 });
    await flow.sendCode("+12025550123");
    await flow.verifyCode("+12025550123", "123456", { sms: true, terms: true });
    expect(calls.verifyCode).toHaveBeenCalledWith({
      phone: "+12025550123",
      code: "123456",
      codeRequestId: SECOND,
      consents: { sms: true, terms: true },
    });
  });

  it("keeps the value after a refused code, so the student may try again", async () => {
    const { client: c, calls } = client([FIRST]);
    calls.verifyCode.mockRejectedValueOnce(new Error("Invalid verification code"));
    const flow = createLocalPhoneAuth(c);
    await flow.sendCode("+12025550123");
    await expect(flow.verifyCode("+12025550123", "000000")).rejects.toThrow("Invalid verification code");
    await flow.verifyCode("+12025550123", "123456");
    expect(calls.verifyCode).toHaveBeenLastCalledWith({ phone: "+12025550123", code: "123456", codeRequestId: FIRST });
  });

  it("asks for a new code, without calling the server, when none was sent to that number here", async () => {
    const { client: c, calls } = client([FIRST]);
    const flow = createLocalPhoneAuth(c);
    await expect(flow.verifyCode("+12025550123", "123456")).rejects.toEqual(
      new PhoneAuthError(SIGN_IN_MESSAGES.unknownRequest),
    );
    await flow.sendCode("+12025550123");
    await expect(flow.verifyCode("+12025550199", "123456")).rejects.toBeInstanceOf(PhoneAuthError);
    // Signed in: the value is spent.
    await flow.verifyCode("+12025550123", "123456");
    await expect(flow.verifyCode("+12025550123", "123456")).rejects.toBeInstanceOf(PhoneAuthError);
    expect(calls.verifyCode).toHaveBeenCalledTimes(1);
  });
});
