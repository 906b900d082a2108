import type { ErrorEvent } from "@sentry/core";
import { describe, expect, it } from "vitest";
import { scrubEvent, scrubText } from "./scrub";

describe("scrubbing error reports", () => {
  it.each([
    ["phone, E.164", "sent to +14155552671 failed", "sent to [phone] failed"],
    ["phone, national", "call (415) 555-2671 now", "call [phone] now"],
    ["e-mail", "bounced: ada@cs.example.edu", "bounced: [email]"],
    ["JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature", "token [token]"],
    ["bearer", "Authorization: Bearer abc.def-ghi, next", "Authorization: Bearer [token], next"],
    ["code", "code 482913 expired", "code [number] expired"],
    ["uuid", "vote 0b6f1d2e-7c3a-4e5b-9f10-2a3b4c5d6e7f missing", "vote [id] missing"],
    [
      "Postgres detail",
      "Key (school_email)=(ada@x.edu) already exists",
      "Key (school_email)=([redacted]) already exists",
    ],
    ["quoted input", 'invalid input syntax for type uuid: "Ada"', 'invalid input syntax for type uuid: "[redacted]"'],
    ["opaque secret", "refresh r_9f8e7d6c5b4a39281706f5e4d3c2b1a0 reused", "refresh [secret] reused"],
  ])("%s", (_, text, expected) => {
    expect(scrubText(text)).toBe(expected);
  });

  it("keeps what tells the error apart: its type, plain words, short numbers and the stack", () => {
    expect(scrubText("TypeError: Cannot read properties of undefined (reading 'x') at line 12")).toBe(
      "TypeError: Cannot read properties of undefined (reading '[redacted]') at line 12",
    );
    const frame = { filename: "/app/dist/bin/server.mjs", function: "createIntent", lineno: 12345, colno: 7 };
    const event = scrubEvent({
      type: undefined,
      exception: {
        values: [
          { type: "Error", value: "boom", stacktrace: { frames: [{ ...frame, vars: { phone: "+14155552671" } }] } },
        ],
      },
    } as ErrorEvent);
    expect(event.exception?.values?.[0]).toEqual({ type: "Error", value: "boom", stacktrace: { frames: [frame] } });
  });

  it("drops the user, the request and breadcrumbs, and redacts fields named for personal data", () => {
    const event = scrubEvent({
      type: undefined,
      user: { id: "u1", ip_address: "203.0.113.9" },
      request: { url: "https://quad.test/api/x?phone=1", headers: { authorization: "Bearer x" } },
      breadcrumbs: [{ message: "fetch https://push.example/abc" }],
      extra: { procedure: "inbox.unlock", firstName: "Ada", nested: { schoolEmail: "x", note: "ok" } },
      tags: { route: "/api/votes/:id" },
      contexts: { runtime: { name: "node", version: "v20" }, quad: { displayName: "Ada" } },
    } as ErrorEvent);
    expect(event.user).toBeUndefined();
    expect(event.request).toBeUndefined();
    expect(event.breadcrumbs).toBeUndefined();
    expect(event.extra).toEqual({
      procedure: "inbox.unlock",
      firstName: "[redacted]",
      nested: { schoolEmail: "[redacted]", note: "ok" },
    });
    expect(event.tags).toEqual({ route: "/api/votes/:id" });
    expect(event.contexts).toEqual({ runtime: { name: "node", version: "v20" }, quad: { displayName: "[redacted]" } });
  });
});
