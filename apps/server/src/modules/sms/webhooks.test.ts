import { SMS_CONSENT_VERSION, SMS_REPLIES } from "@quad/contracts";
import { consents, smsOutbox } from "@quad/db/schema";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { desc, eq } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { testPhone } from "../../test/auth";
import { consentTo, fakeProvider } from "../../test/sms";
import { smsAllowed } from "../consents/service";
import { createSmsSender } from "./sender";
import { twilioSignature } from "./twilio";
import { registerSmsWebhooks, twiml } from "./webhooks";

const TOKEN = "twilio-auth-token-for-tests";
const PUBLIC_URL = "https://quad.example";
const OUR_NUMBER = "+15005550006";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_URL } });
});
afterAll(() => t?.close());

/** A webhook exactly as Twilio sends it: form-encoded, signed over our public URL and every parameter. */
function twilioPost(
  path: string,
  params: Record<string, string>,
  opts: { token?: string; signature?: string | null; signedUrl?: string } = {},
) {
  const payload = new URLSearchParams(params).toString();
  const signature =
    opts.signature === undefined
      ? twilioSignature(opts.token ?? TOKEN, opts.signedUrl ?? `${PUBLIC_URL}${path}`, Object.entries(params))
      : opts.signature;
  return t.app.inject({
    method: "POST",
    url: path,
    headers: {
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
      ...(signature === null ? {} : { "x-twilio-signature": signature }),
    },
    payload,
  });
}

const inbound = (from: string, body: string, opts?: Parameters<typeof twilioPost>[2]) =>
  twilioPost(
    "/api/sms/inbound",
    {
      MessageSid: `SM${Math.random().toString(16).slice(2)}`,
      AccountSid: "AC1",
      From: from,
      To: OUR_NUMBER,
      Body: body,
      NumMedia: "0",
    },
    opts,
  );

const latestConsent = async (phone: string) =>
  (await t.deps.db.select().from(consents).where(eq(consents.phone, phone)).orderBy(desc(consents.seq)).limit(1))[0];
const consentCount = async (phone: string) =>
  (await t.deps.db.select().from(consents).where(eq(consents.phone, phone))).length;

describe("POST /api/sms/inbound", () => {
  it.each(["STOP", "stop", "  Stop  ", "StopAll", "UNSUBSCRIBE", "cancel", " End", "quit\n", "Stop."])(
    "%j opts out, answered with one TwiML confirmation",
    async (body) => {
      const phone = testPhone();
      await consentTo(t.deps.db, phone, t.deps.now());
      const res = await inbound(phone, body);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/xml/);
      expect(res.body).toBe(twiml(SMS_REPLIES.optedOut));
      expect(res.body).toContain("<Response><Message>Quad: You&apos;re unsubscribed");
      const keyword = body.trim().replace(/\.$/, "").toUpperCase();
      expect(await latestConsent(phone)).toMatchObject({
        kind: "sms",
        granted: false,
        source: `sms:${keyword}`,
        textVersion: SMS_CONSENT_VERSION,
      });
      expect(await smsAllowed(t.deps.db, phone)).toBe(false);
    },
  );

  it("confirms an opt-out once: a repeated STOP gets an empty answer and no new record", async () => {
    const phone = testPhone();
    await consentTo(t.deps.db, phone, t.deps.now());
    await inbound(phone, "STOP");
    const again = await inbound(phone, "stop");
    expect(again.body).toBe(twiml(null));
    expect(again.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await consentCount(phone)).toBe(2);
  });

  it.each(["START", " unstop ", "Start"])("%j opts back in", async (body) => {
    const phone = testPhone();
    await consentTo(t.deps.db, phone, new Date(t.deps.now().getTime() - 2000));
    await inbound(phone, "STOP");
    expect(await smsAllowed(t.deps.db, phone)).toBe(false);
    const res = await inbound(phone, body);
    expect(res.body).toBe(twiml(SMS_REPLIES.optedIn));
    expect(await latestConsent(phone)).toMatchObject({ granted: true, source: `sms:${body.trim().toUpperCase()}` });
    expect(await smsAllowed(t.deps.db, phone)).toBe(true);
  });

  it.each(["HELP", "help", "  Help "])("%j answers help text naming the opt-out word", async (body) => {
    const res = await inbound(testPhone(), body);
    expect(res.body).toBe(twiml(SMS_REPLIES.help));
    expect(res.body).toContain("Reply STOP to opt out");
  });

  it("answers anything else with an empty response and records nothing, even a sentence containing stop", async () => {
    const phone = testPhone();
    for (const body of ["hello", "please stop texting me later", "", "STOP STOP"]) {
      const res = await inbound(phone, body);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(twiml(null));
    }
    expect(await consentCount(phone)).toBe(0);
  });

  it("sends the confirmation in the answer, never through the outbound queue", async () => {
    const phone = testPhone();
    await inbound(phone, "STOP");
    await inbound(phone, "HELP");
    expect(await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone))).toEqual([]);
  });

  it("refuses with 403, and changes nothing, a missing, forged or replayed-elsewhere signature", async () => {
    const phone = testPhone();
    await consentTo(t.deps.db, phone, t.deps.now());
    const attempts = [
      await inbound(phone, "STOP", { signature: null }),
      await inbound(phone, "STOP", { signature: "bm90IGEgc2lnbmF0dXJl" }),
      await inbound(phone, "STOP", { token: "someone-elses-token" }),
      await inbound(phone, "STOP", { signedUrl: "https://evil.example/api/sms/inbound" }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: "Invalid Twilio signature", code: "FORBIDDEN" });
    }
    // A body changed after signing.
    const params = { From: phone, To: OUR_NUMBER, Body: "HELP" };
    const signature = twilioSignature(TOKEN, `${PUBLIC_URL}/api/sms/inbound`, Object.entries(params));
    const tampered = await t.app.inject({
      method: "POST",
      url: "/api/sms/inbound",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      payload: new URLSearchParams({ ...params, Body: "STOP" }).toString(),
    });
    expect(tampered.statusCode).toBe(403);
    // Not a form at all.
    const json = await t.app.inject({
      method: "POST",
      url: "/api/sms/inbound",
      payload: { From: phone, Body: "STOP" },
    });
    expect(json.statusCode).toBe(403);
    expect(await smsAllowed(t.deps.db, phone)).toBe(true);
  });
});

describe("POST /api/sms/status", () => {
  it("records Twilio's delivery status for the message it names, signed", async () => {
    const phone = testPhone();
    await createSmsSender(t.deps.db, fakeProvider(), t.deps.now).send({
      to: phone,
      body: "123456 is your code",
      kind: "code",
    });
    const [row] = await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    const params = {
      MessageSid: row!.providerMessageId!,
      MessageStatus: "delivered",
      AccountSid: "AC1",
      From: OUR_NUMBER,
      To: phone,
    };

    expect((await twilioPost("/api/sms/status", params, { token: "wrong" })).statusCode).toBe(403);
    expect((await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.id, row!.id)))[0]!.status).toBe("sent");

    const res = await twilioPost("/api/sms/status", params);
    expect(res.statusCode).toBe(204);
    expect((await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.id, row!.id)))[0]!.status).toBe("delivered");
  });

  it("stores the error of an undelivered message", async () => {
    const phone = testPhone();
    await createSmsSender(t.deps.db, fakeProvider(), t.deps.now).send({
      to: phone,
      body: "123456 is your code",
      kind: "code",
    });
    const [row] = await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    await twilioPost("/api/sms/status", {
      MessageSid: row!.providerMessageId!,
      MessageStatus: "undelivered",
      ErrorCode: "30005",
      To: phone,
    });
    expect((await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.id, row!.id)))[0]).toMatchObject({
      status: "failed",
      lastError: "undelivered (Twilio error 30005)",
    });
  });
});

describe("without TWILIO_AUTH_TOKEN (SMS_PROVIDER=outbox)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  async function bareApp(devRoutesEnabled: boolean) {
    const app = Fastify();
    await registerSmsWebhooks(app, {
      db: database.db,
      config: { PUBLIC_URL, TWILIO_AUTH_TOKEN: undefined, devRoutesEnabled },
      now: () => new Date(),
    });
    return app;
  }
  const unsignedStop = (app: Awaited<ReturnType<typeof bareApp>>, phone: string) =>
    app.inject({
      method: "POST",
      url: "/api/sms/inbound",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ From: phone, Body: "STOP" }).toString(),
    });

  it("accepts unsigned requests where the development routes are served, so the flow can be tried locally", async () => {
    const app = await bareApp(true);
    const phone = testPhone();
    const res = await unsignedStop(app, phone);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(twiml(SMS_REPLIES.optedOut));
    await app.close();
  });

  it("refuses every request elsewhere", async () => {
    const app = await bareApp(false);
    const phone = testPhone();
    expect((await unsignedStop(app, phone)).statusCode).toBe(403);
    expect(await database.db.select().from(consents).where(eq(consents.phone, phone))).toEqual([]);
    await app.close();
  });
});
