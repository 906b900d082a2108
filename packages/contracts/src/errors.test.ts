import { describe, expect, it } from "vitest";
import { ApiErrorBody, codeOfStatus, ERROR_CODES, ERROR_STATUS, type ErrorCode, statusOf } from "./errors";

describe("error codes and HTTP statuses", () => {
  it.each<[code: ErrorCode, status: number]>([
    ["BAD_REQUEST", 400],
    ["UNAUTHORIZED", 401],
    ["PAYMENT_REQUIRED", 402],
    ["FORBIDDEN", 403],
    ["NOT_FOUND", 404],
    ["METHOD_NOT_SUPPORTED", 405],
    ["CONFLICT", 409],
    ["PAYLOAD_TOO_LARGE", 413],
    ["UNSUPPORTED_MEDIA_TYPE", 415],
    ["TOO_MANY_REQUESTS", 429],
    ["INTERNAL_SERVER_ERROR", 500],
  ])("%s ⇄ %d", (code, status) => {
    expect(statusOf(code)).toBe(status);
    expect(codeOfStatus(status)).toBe(code);
  });

  it("round-trips every code and every status", () => {
    for (const code of ERROR_CODES) expect(codeOfStatus(statusOf(code))).toBe(code);
    for (const status of Object.values(ERROR_STATUS)) expect(statusOf(codeOfStatus(status))).toBe(status);
    expect(new Set(Object.values(ERROR_STATUS)).size).toBe(ERROR_CODES.length);
  });

  it.each<[status: number, code: ErrorCode]>([
    [418, "BAD_REQUEST"],
    [422, "BAD_REQUEST"],
    [502, "INTERNAL_SERVER_ERROR"],
    [504, "INTERNAL_SERVER_ERROR"],
  ])("maps the unlisted status %d to %s", (status, code) => {
    expect(codeOfStatus(status)).toBe(code);
  });

  it("validates the error body", () => {
    expect(
      ApiErrorBody.safeParse({
        message: "Invalid input",
        code: "BAD_REQUEST",
        fieldErrors: { firstName: ["First name is required"] },
      }).success,
    ).toBe(true);
    expect(ApiErrorBody.safeParse({ message: "x", code: "TEAPOT" }).success).toBe(false);
  });
});
