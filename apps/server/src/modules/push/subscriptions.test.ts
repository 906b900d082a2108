import { PUSH_MESSAGES } from "@quad/contracts";
import { pushSubscriptions } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import {
  browserSubscription,
  pushSenderFor,
  startFakePushService,
  type FakePushService,
} from "../../test/push-service";
import { campus, sessionFor } from "../../test/voters";
import { endpointHostAllowed } from "./subscriptions";

let t: TestApp;
let service: FakePushService;
let publicKey: string;
beforeAll(async () => {
  service = await startFakePushService();
  const push = pushSenderFor(service);
  publicKey = push.publicKey;
  t = await createTestApp({ push });
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

const stored = () => t.deps.db.select().from(pushSubscriptions);
const subscribe = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: "PUT", url: "/api/push/subscription", headers, payload: payload as object });

describe("a device's push subscription", () => {
  it("tells the client the VAPID key to subscribe with", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toMatchObject({ vapidPublicKey: publicKey });
  });

  it("is stored once per device, moves with the device to another student, and is removed on unsubscribe", async () => {
    const c = await campus(t);
    const device = browserSubscription(service.endpoint("phone-a"));
    const res = await subscribe(c.headers, { ...device, expirationTime: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ subscribed: true });
    // Subscribing again (a reload) keeps one row.
    expect((await subscribe(c.headers, device)).statusCode).toBe(200);
    expect(await stored()).toMatchObject([
      { userId: c.me.id, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth },
    ]);

    // Someone else signs in on the same phone: the device now notifies them.
    const other = await c.student({ firstName: "Other" });
    const otherHeaders = { authorization: `Bearer ${(await sessionFor(t, other.phone)).token}` };
    expect((await subscribe(otherHeaders, device)).statusCode).toBe(200);
    expect(await stored()).toMatchObject([{ userId: other.id, endpoint: device.endpoint }]);

    // The first student cannot remove it any more; its owner can.
    const unsubscribe = (headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: "/api/push/unsubscribe", headers, payload: { endpoint: device.endpoint } });
    expect((await unsubscribe(c.headers)).json()).toEqual({ subscribed: false });
    expect(await stored()).toHaveLength(1);
    expect((await unsubscribe(otherHeaders)).statusCode).toBe(200);
    expect(await stored()).toEqual([]);
  });

  it.each([
    ["a plain-http endpoint", { endpoint: "http://push.example.com/x" }, "endpoint", PUSH_MESSAGES.endpoint],
    ["an endpoint that is not a URL", { endpoint: "not a url" }, "endpoint", PUSH_MESSAGES.endpoint],
    ["no keys", { keys: undefined }, "keys", undefined],
    [
      "a public key of the wrong length",
      { keys: { p256dh: "AAAA", auth: "AAAAAAAAAAAAAAAAAAAAAA" } },
      "keys.p256dh",
      PUSH_MESSAGES.p256dh,
    ],
    [
      "an auth secret that is not base64url",
      { keys: { p256dh: "x".repeat(87), auth: "not base64url!!!!!!!!!" } },
      "keys.auth",
      PUSH_MESSAGES.auth,
    ],
  ])("refuses %s with 400 and stores nothing", async (_name, change, field, message) => {
    const c = await campus(t);
    const device = browserSubscription(service.endpoint("phone-b"));
    const res = await subscribe(c.headers, { endpoint: device.endpoint, keys: device.keys, ...change });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; fieldErrors: Record<string, string[]> };
    expect(body.code).toBe("BAD_REQUEST");
    expect(Object.keys(body.fieldErrors)).toContain(field);
    if (message) expect(body.fieldErrors[field]).toContain(message);
    expect(
      await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint)),
    ).toEqual([]);
  });

  it("goes with the account when the student deletes it", async () => {
    const c = await campus(t);
    const device = browserSubscription(service.endpoint("phone-e"));
    expect((await subscribe(c.headers, device)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: c.headers,
      payload: { confirm: "DELETE" },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, c.me.id))).toEqual([]);
  });

  it("in production, only on a push service's name: never an address, localhost or an internal name", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/QOi",
    ]) {
      expect(endpointHostAllowed(endpoint, false)).toBe(true);
    }
    for (const endpoint of [
      "https://127.0.0.1:8443/x",
      "https://10.0.0.5/x",
      "https://[::1]/x",
      "https://localhost/x",
      "https://metadata/x",
      "https://db.internal/x",
      "https://printer.local/x",
    ]) {
      expect(endpointHostAllowed(endpoint, false)).toBe(false);
      expect(endpointHostAllowed(endpoint, true)).toBe(true);
    }
  });

  it("needs a session", async () => {
    const device = browserSubscription(service.endpoint("phone-c"));
    expect((await subscribe({}, device)).statusCode).toBe(401);
  });
});

describe("with push off on the server", () => {
  it("answers 409 to subscribing and a null key in the client's configuration", async () => {
    const off = await createTestApp();
    try {
      const c = await campus(off);
      const res = await off.app.inject({
        method: "PUT",
        url: "/api/push/subscription",
        headers: c.headers,
        payload: browserSubscription(service.endpoint("phone-d")),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ message: PUSH_MESSAGES.disabled });
      expect((await off.app.inject({ method: "GET", url: "/api/config" })).json()).toMatchObject({
        vapidPublicKey: null,
      });
    } finally {
      await off.close();
    }
  });
});

describe("in production", () => {
  it("refuses an endpoint on an address with 400 and stores nothing", async () => {
    const production = await createTestApp({
      push: pushSenderFor(service),
      env: {
        NODE_ENV: "production",
        JWT_SECRET: "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic",
        ALLOW_DEV_PROVIDERS: "true",
      },
    });
    try {
      const c = await campus(production);
      const res = await production.app.inject({
        method: "PUT",
        url: "/api/push/subscription",
        headers: c.headers,
        payload: browserSubscription(service.endpoint("phone-f")),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { endpoint: [PUSH_MESSAGES.endpoint] } });
      expect(await production.deps.db.select().from(pushSubscriptions)).toEqual([]);
    } finally {
      await production.close();
    }
  });
});
