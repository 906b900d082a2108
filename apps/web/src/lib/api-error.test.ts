import { TOASTS } from "@quad/contracts";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { ApiError, errorCodeOf, fieldErrorsOf, httpStatusOf, isUnauthorizedError, toUserMessage } from "./api-error";

function trpcClientError(message: string, data?: Record<string, unknown>) {
  return new TRPCClientError(message, data ? { result: { error: { message, code: -32600, data } } } : undefined);
}

describe("toUserMessage", () => {
  it("uses the server's message from a tRPC error", () => {
    const error = trpcClientError("You have no unlocks left.", { code: "PAYMENT_REQUIRED", httpStatus: 402 });
    expect(toUserMessage(error, TOASTS.unlockFailed)).toBe("You have no unlocks left.");
    expect(errorCodeOf(error)).toBe("PAYMENT_REQUIRED");
    expect(httpStatusOf(error)).toBe(402);
  });

  it("uses the server's message from a REST error", () => {
    const error = new ApiError(402, { code: "PAYMENT_REQUIRED", message: "Your card was declined." });
    expect(toUserMessage(error, TOASTS.paymentFailed)).toBe("Your card was declined.");
    expect(errorCodeOf(error)).toBe("PAYMENT_REQUIRED");
  });

  it("falls back when the server never answered (network, timeout)", () => {
    const network = TRPCClientError.from(new TypeError("Failed to fetch"));
    expect(toUserMessage(network, TOASTS.submitVoteFailed)).toBe(TOASTS.submitVoteFailed);
    expect(toUserMessage(new DOMException("The operation timed out.", "TimeoutError"))).toBe(TOASTS.unexpected);
  });

  it("falls back for a REST answer without a JSON error body", () => {
    expect(toUserMessage(new ApiError(502, null), TOASTS.fetchPromptFailed)).toBe(TOASTS.fetchPromptFailed);
  });

  it("falls back for a raw validation dump", () => {
    const error = trpcClientError('[{"code":"too_small"}]', { code: "BAD_REQUEST", httpStatus: 400 });
    expect(toUserMessage(error, TOASTS.processRequestFailed)).toBe(TOASTS.processRequestFailed);
  });

  it("defaults to the contracts' generic message", () => {
    expect(toUserMessage("boom")).toBe(TOASTS.unexpected);
  });
});

describe("error details", () => {
  it("recognises a 401 from either transport", () => {
    expect(isUnauthorizedError(trpcClientError("x", { code: "UNAUTHORIZED", httpStatus: 401 }))).toBe(true);
    expect(isUnauthorizedError(new ApiError(401, null))).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, null))).toBe(false);
  });

  it("reads field errors", () => {
    const error = new ApiError(400, {
      code: "BAD_REQUEST",
      message: "Invalid input",
      fieldErrors: { firstName: ["First name is required"] },
    });
    expect(fieldErrorsOf(error)).toEqual({ firstName: ["First name is required"] });
    expect(fieldErrorsOf(new Error("x"))).toEqual({});
  });
});
