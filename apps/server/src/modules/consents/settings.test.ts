import { SMS_CONSENT_VERSION, SmsSettings } from "@quad/contracts";
import { consents } from "@quad/db/schema";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, testPhone } from "../../test/auth";
import { testClock } from "../../test/sms";
import { campus, sessionFor } from "../../test/voters";
import { recordSignupConsents, recordSmsKeywordConsent, smsAllowed, smsAllowedPhones } from "./service";

const clock = testClock("2026-03-04T18:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());

const tick = () => clock.advance(1000);
const getSettings = (headers: Record<string, string>) =>
  t.app.inject({ method: "GET", url: "/api/users/sms-settings", headers });
const putSettings = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: "PUT", url: "/api/users/sms-settings", headers, payload: payload as Record<string, unknown> });

describe("SMS settings (GET/PUT /api/users/sms-settings, users.smsSettings / users.setSms)", () => {
  it("needs a session", async () => {
    expect((await getSettings({})).statusCode).toBe(401);
    expect((await putSettings({}, { enabled: false })).statusCode).toBe(401);
  });

  it("reads the sign-up consent, and writes each switch as a consent record (source settings, current text version)", async () => {
    const c = await campus(t);
    await recordSignupConsents(t.deps.db, c.me.phone, clock.now());
    tick();
    const initial = await getSettings(c.headers);
    expect(initial.statusCode).toBe(200);
    expect(SmsSettings.parse(initial.json())).toEqual({
      enabled: true,
      optedOutBySms: false,
      updatedAt: "2026-03-04T18:00:00.000Z",
    });

    const off = await putSettings(c.headers, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, optedOutBySms: false });
    expect(await smsAllowed(t.deps.db, c.me.phone)).toBe(false);
    tick();
    expect((await putSettings(c.headers, { enabled: true })).json()).toMatchObject({ enabled: true });
    expect(await smsAllowed(t.deps.db, c.me.phone)).toBe(true);

    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.phone, c.me.phone))
      .orderBy(asc(consents.seq));
    expect(rows.filter((r) => r.kind === "sms").map((r) => [r.granted, r.source, r.textVersion, r.userId])).toEqual([
      [true, "signup", SMS_CONSENT_VERSION, null],
      [false, "settings", SMS_CONSENT_VERSION, c.me.id],
      [true, "settings", SMS_CONSENT_VERSION, c.me.id],
    ]);
  });

  it("rejects anything but {enabled: boolean}", async () => {
    const c = await campus(t);
    for (const payload of [{}, { enabled: "no" }, { enabled: true, phone: "+15555550123" }]) {
      expect((await putSettings(c.headers, payload)).statusCode).toBe(400);
    }
  });

  it("works over tRPC for the web client", async () => {
    const phone = testPhone();
    const headers = bearer(await sessionFor(t, phone));
    const set = await t.app.inject({
      method: "POST",
      url: "/api/trpc/users.setSms",
      headers,
      payload: { enabled: true },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().result.data).toMatchObject({ enabled: true, optedOutBySms: false });
    const get = await t.app.inject({ method: "GET", url: "/api/trpc/users.smsSettings", headers });
    expect(get.json().result.data).toMatchObject({ enabled: true });
  });

  it("cannot override a STOP: texts stay off until the number replies START", async () => {
    const c = await campus(t);
    await recordSignupConsents(t.deps.db, c.me.phone, clock.now());
    tick();
    await recordSmsKeywordConsent(t.deps.db, c.me.phone, "STOP", false, clock.now());
    tick();
    expect((await getSettings(c.headers)).json()).toMatchObject({ enabled: false, optedOutBySms: true });
    tick();
    // The switch is recorded (the person's wish) but the STOP stands.
    expect((await putSettings(c.headers, { enabled: true })).json()).toMatchObject({
      enabled: false,
      optedOutBySms: true,
    });
    expect(await smsAllowed(t.deps.db, c.me.phone)).toBe(false);
    tick();
    await recordSmsKeywordConsent(t.deps.db, c.me.phone, "START", true, clock.now());
    expect((await getSettings(c.headers)).json()).toMatchObject({ enabled: true, optedOutBySms: false });
  });
});

describe("smsAllowed", () => {
  it("is false without any record, and follows the latest record even within one millisecond", async () => {
    const [never, same] = [testPhone(), testPhone()];
    expect(await smsAllowed(t.deps.db, never)).toBe(false);
    const at = clock.now();
    await recordSignupConsents(t.deps.db, same, at);
    await t.deps.db.insert(consents).values({
      phone: same,
      kind: "sms",
      granted: false,
      textVersion: SMS_CONSENT_VERSION,
      source: "settings",
      createdAt: at,
    });
    expect(await smsAllowed(t.deps.db, same)).toBe(false);
    expect(await smsAllowedPhones(t.deps.db, [never, same])).toEqual(new Set());
  });

  it("ignores the terms consent", async () => {
    const phone = testPhone();
    await t.deps.db.insert(consents).values({
      phone,
      kind: "terms",
      granted: true,
      textVersion: "terms-x",
      source: "signup",
      createdAt: clock.now(),
    });
    expect(await smsAllowed(t.deps.db, phone)).toBe(false);
  });
});
