import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { inboxClient, type Protocol } from "../test/inbox-client";
import { campus, sessionFor } from "../test/voters";
import { receiveVotes } from "../test/votes";

/**
 * The inbox cursor is opaque to clients but only base64url JSON of [time, id],
 * so a student can hand-make one. Values Postgres would refuse answered 500
 * (and filed an error report) before decodeCursor held them: a time whose UTC
 * instant falls in year 0 or past 9999, and an id of 36 [0-9a-f-] that is no
 * uuid. Each must answer 400 "Invalid cursor", over REST and tRPC.
 */
let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ env: { VOTE_DELIVERY_WINDOW_S: "60" } });
  const c = await campus(t, { gender: "male", preference: "female" });
  const recipient = await c.student({ gender: "female" });
  await receiveVotes(t, { recipientId: recipient.id, voterIds: [c.me.id], at: new Date(Date.now() - 3_600_000) });
  headers = { authorization: `Bearer ${(await sessionFor(t, recipient.phone)).token}` };
});
afterAll(() => t?.close());

const cursorOf = (time: string, id = "00000000-0000-4000-8000-000000000000") =>
  Buffer.from(JSON.stringify([time, id])).toString("base64url");

const FORGED: [string, string][] = [
  ["a time in year zero", cursorOf("0000-01-01T00:00:00Z")],
  ["a time that is year zero in UTC", cursorOf("0001-01-01T00:00:00+23:59")],
  ["a time that is year 10000 in UTC", cursorOf("9999-12-31T23:59:59-23:59")],
  ["an id of 36 hyphens", cursorOf("2026-01-01T00:00:00Z", "-".repeat(36))],
  ["an id of 36 hex and hyphens that is no uuid", cursorOf("2026-01-01T00:00:00Z", `${"0".repeat(34)}-0`)],
];

describe.each<Protocol>(["rest", "trpc"])("a hand-made inbox cursor over %s", (protocol) => {
  it.each(FORGED)("with %s answers 400 Invalid cursor, not 500", async (_name, cursor) => {
    const res = await inboxClient(t.app, protocol).received(headers, { cursor });
    expect(res.status, res.body).toBe(400);
    expect(res.body).toContain("Invalid cursor");
  });
});
