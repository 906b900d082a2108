import { routeList, routes, type EndpointDef } from "@quad/contracts";
import type { AnyTRPCProcedure } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter, type RateLimiter } from "../rate-limit/limiter";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { appRouter } from "../trpc/root";

/**
 * docs/product.md "Limits": every write endpoint has per-student and per-IP limits.
 * Each write procedure is called once with a valid input through a limiter
 * that records the keys it is asked about; the keys must name the caller's
 * address and (for signed-in calls) the caller. The writes are the router's
 * own mutations, tRPC-only ones included: a new one without a limit in its
 * contracts row, or without a sample here, fails the first test.
 */

const CLIENT_IP = "198.51.100.23";
const seen: string[] = [];
const recording = (inner: RateLimiter): RateLimiter => ({
  consume: (key, limit, windowMs) => {
    seen.push(key);
    return inner.consume(key, limit, windowMs);
  },
  release: (key) => inner.release(key),
  close: () => inner.close(),
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimiter: recording(createMemoryRateLimiter()), env: { TRUST_PROXY: "true" } });
});
afterAll(() => t?.close());

type Sample = (ids: { other: string; phone: string }) => unknown;
const UUID = "00000000-0000-4000-8000-000000000000";

/** A valid input for each write procedure (it need not succeed: the limit comes first or on the way). */
const SAMPLES: Record<string, Sample> = {
  "auth.sendCode": () => ({ phone: SIGN_IN_PHONE }),
  "auth.verifyCode": () => ({
    phone: SIGN_IN_PHONE,
    code: "123456",
    codeRequestId: "A".repeat(43),
    consents: { sms: true, terms: true },
  }),
  "auth.refresh": () => ({ refreshToken: "not-a-real-token" }),
  "auth.logout": () => ({ refreshToken: "not-a-real-token" }),
  "auth.firebase": () => ({ idToken: "not-a-real-token", consents: { sms: true, terms: true } }),
  "users.update": () => ({ firstName: "Avery" }),
  "users.setSms": () => ({ enabled: false }),
  "schoolEmail.sendCode": () => ({ email: "avery@tu.edu" }),
  "schoolEmail.verify": () => ({ email: "avery@tu.edu", code: "123456" }),
  "push.subscribe": () => ({
    endpoint: "https://push.example.com/send/1",
    keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) },
  }),
  "push.unsubscribe": () => ({ endpoint: "https://push.example.com/send/1" }),
  "rounds.vote": ({ other }) => ({ userId: other, promptId: 1 }),
  "rounds.skip": () => undefined,
  "inbox.unlock": () => ({ userId: UUID }),
  "inbox.markOpened": () => ({}),
  "payments.createPaymentIntent": () => ({ productId: "unlock-3" }),
  "payments.flashSale": () => undefined,
  "payments.localConfirm": () => ({ clientSecret: "pi_missing_secret", cardNumber: "4242424242424242" }),
  "safety.block": ({ other }) => ({ userId: other }),
  "safety.unblock": ({ other }) => ({ userId: other }),
  "safety.report": ({ other }) => ({ target: { userId: other }, reason: "fake_profile" }),
  "account.pause": () => ({ paused: false }),
  "account.preview": () => ({ showInPreview: true }),
  "admin.restore": ({ other }) => ({ userId: other }),
  "admin.removePhoto": ({ other }) => ({ userId: other }),
  "admin.removeProfile": ({ other }) => ({ userId: other }),
  // Last: it ends the caller's account.
  "account.delete": () => ({ confirm: "DELETE" }),
};

const PUBLIC = new Set(routeList.filter((route) => !route.auth).map((route) => route.procedure));
/**
 * Signed-out writes that name a phone are limited per phone too. (Sending a
 * code is limited per phone by the codes table itself — one per 30 s, a few
 * an hour — tested with the auth module.)
 */
const SIGN_IN_PHONE = "+12025550134";
const PER_PHONE = new Set(["auth.verifyCode"]);

describe("write limits", () => {
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
  const mutations = Object.keys(procedures).filter((name) => procedures[name]!._def.type === "mutation");

  it("every mutation of the router has a write limit in its row and a sample here", () => {
    expect(mutations.length).toBeGreaterThan(20);
    const rows = routes as Record<string, EndpointDef>;
    expect(mutations.filter((name) => !rows[name]?.writeLimit)).toEqual([]);
    expect(mutations.filter((name) => !(name in SAMPLES))).toEqual([]);
    // And every REST write is one of them.
    const restWrites = routeList.filter((route) => route.method !== "GET").map((route) => route.procedure);
    expect(restWrites.filter((name) => !mutations.includes(name))).toEqual([]);
  });

  it("each write consumes a per-address and, when signed in, a per-student limit", async () => {
    const c = await campus(t, { role: "admin" });
    const other = await c.student({ gender: "female" });
    const missing: string[] = [];
    for (const [procedure, sample] of Object.entries(SAMPLES)) {
      seen.length = 0;
      const input = sample({ other: other.id, phone: c.me.phone });
      await t.app.inject({
        method: "POST",
        url: `/api/trpc/${procedure}`,
        headers: {
          authorization: `Bearer ${c.tokens.token}`,
          "x-forwarded-for": CLIENT_IP,
          "content-type": "application/json",
        },
        payload: input === undefined ? "" : JSON.stringify(input),
      });
      const perIp = seen.some((key) => key.includes(CLIENT_IP));
      const perStudent = PER_PHONE.has(procedure)
        ? seen.some((key) => key.includes(SIGN_IN_PHONE))
        : PUBLIC.has(procedure) || seen.some((key) => key.includes(c.me.phone) || key.includes(c.me.id));
      if (!perIp || !perStudent)
        missing.push(
          `${procedure}: ${perIp ? "" : "no per-IP limit "}${perStudent ? "" : "no per-student limit"} (keys: ${seen.join(", ")})`,
        );
    }
    expect(missing).toEqual([]);
  });
});
