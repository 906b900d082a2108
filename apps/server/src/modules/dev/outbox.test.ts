import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { testPhone } from "../../test/auth";

/**
 * The development SMS outbox holds every number's sign-in codes: it answers
 * for one phone only, and not at all in production.
 */
const sendCode = (t: TestApp, phone: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone }, remoteAddress: "10.9.9.9" });
const outboxUrl = (phone?: string) => `/api/dev/sms-outbox${phone ? `?phone=${encodeURIComponent(phone)}` : ""}`;
const trpcUrl = (input?: object) =>
  `/api/trpc/dev.smsOutbox${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;

describe("the development outbox", () => {
  let t: TestApp;
  const victim = testPhone();
  const me = testPhone();
  let victimCode: string;

  beforeAll(async () => {
    t = await createTestApp();
    expect((await sendCode(t, victim)).statusCode).toBe(200);
    expect((await sendCode(t, me)).statusCode).toBe(200);
    const rows = (await t.app.inject({ method: "GET", url: outboxUrl(victim) })).json().messages as { body: string }[];
    victimCode = /\b\d{6}\b/.exec(rows[0]!.body)![0];
  });
  afterAll(() => t?.close());

  it("refuses to list without a phone, over REST and tRPC, naming the field and listing nothing", async () => {
    const rest = await t.app.inject({ method: "GET", url: outboxUrl() });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { phone: [expect.any(String)] } });
    expect(rest.body).not.toContain(victimCode);
    expect(rest.body).not.toContain(victim);

    for (const url of [trpcUrl(), trpcUrl({})]) {
      const trpc = await t.app.inject({ method: "GET", url });
      expect(trpc.statusCode, url).toBe(400);
      expect(trpc.body, url).not.toContain(victimCode);
      expect(trpc.body, url).not.toContain(victim);
    }
  });

  it("lists one phone's texts only: asking for mine never shows another number's code", async () => {
    const rest = await t.app.inject({ method: "GET", url: outboxUrl(me) });
    expect(rest.statusCode).toBe(200);
    const messages = rest.json().messages as { to: string; body: string }[];
    expect(messages.length).toBe(1);
    expect(messages.every((m) => m.to === me)).toBe(true);
    expect(rest.body).not.toContain(victimCode);

    const trpc = await t.app.inject({ method: "GET", url: trpcUrl({ phone: me }) });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(rest.json());
  });
});

describe("the development outbox in production", () => {
  let t: TestApp;
  const phone = testPhone();

  beforeAll(async () => {
    // The compose demo: production with the outbox SMS and test payments allowed.
    t = await createTestApp({
      env: { NODE_ENV: "production", ALLOW_DEV_PROVIDERS: "true", JWT_SECRET: randomBytes(48).toString("base64") },
    });
    expect((await sendCode(t, phone)).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it("is not served, with or without a phone, over REST and tRPC, even with ALLOW_DEV_PROVIDERS", async () => {
    expect(t.deps.config.SMS_PROVIDER).toBe("outbox");
    for (const url of [outboxUrl(), outboxUrl(phone), trpcUrl(), trpcUrl({ phone })]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain(phone);
    }
  });

  it("does not take unsigned SMS webhooks either", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/sms/inbound",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ From: phone, Body: "STOP" }).toString(),
    });
    expect(res.statusCode).toBe(403);
  });
});
