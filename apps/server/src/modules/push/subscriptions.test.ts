import { PUSH_DEVICES_PER_STUDENT, PUSH_MESSAGES } from "@quad/contracts";
import { pushSubscriptions } from "@quad/db/schema";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import {
  browserSubscription,
  pushSenderFor,
  startFakePushService,
  type FakePushService,
} from "../../test/push-service";
import { campus, sessionFor } from "../../test/voters";

let t: TestApp;
let service: FakePushService;
let publicKey: string;
/** The app's clock: each subscribe below is a second after the one before. */
let clock = Date.parse("2026-03-05T20:00:00Z");
beforeAll(async () => {
  service = await startFakePushService();
  const push = pushSenderFor(service);
  publicKey = push.publicKey;
  t = await createTestApp({ push, now: () => new Date(clock) });
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

const stored = () => t.deps.db.select().from(pushSubscriptions);
const subscribe = (headers: Record<string, string>, payload: unknown) => {
  clock += 1000;
  return t.app.inject({ method: "PUT", url: "/api/push/subscription", headers, payload: payload as object });
};

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

  it("needs a session", async () => {
    const device = browserSubscription(service.endpoint("phone-c"));
    expect((await subscribe({}, device)).statusCode).toBe(401);
  });
});

describe("devices per student", () => {
  const devicesOf = async (userId: string) =>
    (
      await t.deps.db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(asc(pushSubscriptions.createdAt))
    ).map((row) => row.endpoint);

  it(`are at most ${PUSH_DEVICES_PER_STUDENT}: 15 subscribes leave the 10 newest`, async () => {
    const c = await campus(t);
    const endpoints = Array.from({ length: 15 }, (_, i) => service.endpoint(`cap-${c.me.id}-${i}`));
    for (const endpoint of endpoints) {
      expect((await subscribe(c.headers, browserSubscription(endpoint))).statusCode).toBe(200);
    }
    expect(await devicesOf(c.me.id)).toEqual(endpoints.slice(-PUSH_DEVICES_PER_STUDENT));
  });

  it("subscribing a kept device again makes it the newest, so another is dropped first", async () => {
    const c = await campus(t);
    const endpoints = Array.from({ length: 10 }, (_, i) => service.endpoint(`again-${c.me.id}-${i}`));
    for (const endpoint of endpoints) await subscribe(c.headers, browserSubscription(endpoint));
    // The oldest device is used again (Settings subscribes on every visit), then a new one comes.
    await subscribe(c.headers, browserSubscription(endpoints[0]!));
    const newest = service.endpoint(`again-${c.me.id}-new`);
    await subscribe(c.headers, browserSubscription(newest));
    expect(await devicesOf(c.me.id)).toEqual([...endpoints.slice(2), endpoints[0], newest]);
  });

  it("stay at most 10 when 15 subscribes arrive at once, over REST and tRPC", async () => {
    const c = await campus(t);
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => {
        const device = browserSubscription(service.endpoint(`burst-${c.me.id}-${i}`));
        return i % 2
          ? t.app.inject({ method: "PUT", url: "/api/push/subscription", headers: c.headers, payload: device })
          : t.app.inject({ method: "POST", url: "/api/trpc/push.subscribe", headers: c.headers, payload: device });
      }),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(15).fill(200));
    expect(await devicesOf(c.me.id)).toHaveLength(PUSH_DEVICES_PER_STUDENT);
  });

  it("count one row per endpoint however often and however spelled it is subscribed", async () => {
    const c = await campus(t);
    const device = browserSubscription(service.endpoint(`same-${c.me.id}`));
    const spelled = device.endpoint.replace("https://127.0.0.1", "https://127.0.0.1.");
    await Promise.all([subscribe(c.headers, device), subscribe(c.headers, device)]);
    await subscribe(c.headers, { ...device, endpoint: spelled });
    expect(await devicesOf(c.me.id)).toEqual([device.endpoint]);
  });

  it("a device moved to another student counts against that student's cap, not the first one's", async () => {
    const c = await campus(t);
    const other = await c.student({ firstName: "Other" });
    const otherHeaders = { authorization: `Bearer ${(await sessionFor(t, other.phone)).token}` };
    const mine = Array.from({ length: 10 }, (_, i) => service.endpoint(`mine-${c.me.id}-${i}`));
    const theirs = Array.from({ length: 10 }, (_, i) => service.endpoint(`theirs-${other.id}-${i}`));
    for (const endpoint of theirs) await subscribe(otherHeaders, browserSubscription(endpoint));
    for (const endpoint of mine) await subscribe(c.headers, browserSubscription(endpoint));
    // The other student signs in on my newest device: it is theirs alone now, their oldest goes.
    await subscribe(otherHeaders, browserSubscription(mine[9]!));
    expect(await devicesOf(c.me.id)).toEqual(mine.slice(0, 9));
    expect(await devicesOf(other.id)).toEqual([...theirs.slice(1), mine[9]]);
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
  let production: TestApp;
  beforeAll(async () => {
    production = await createTestApp({
      push: pushSenderFor(service),
      env: {
        NODE_ENV: "production",
        JWT_SECRET: "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic",
        ALLOW_DEV_PROVIDERS: "true",
        PUSH_SERVICE_HOSTS: "push.example.net, *.push.example.org",
      },
    });
  });
  afterAll(() => production?.close());

  const keys = browserSubscription("https://push.invalid/").keys;
  const via = {
    REST: (headers: Record<string, string>, payload: object) =>
      production.app.inject({ method: "PUT", url: "/api/push/subscription", headers, payload }),
    tRPC: (headers: Record<string, string>, payload: object) =>
      production.app.inject({ method: "POST", url: "/api/trpc/push.subscribe", headers, payload }),
  };

  describe.each(Object.entries(via))("over %s", (_protocol, send) => {
    it.each([
      ["the local push service", () => service.endpoint("phone-f")],
      ["localhost with a trailing dot", () => "https://localhost./push/x"],
      ["a name below localhost with a trailing dot", () => "https://x.localhost./push/x"],
      [
        "the metadata service's name with a trailing dot",
        () => "https://metadata.google.internal./computeMetadata/v1/",
      ],
      ["localhost with an encoded dot", () => "https://localhost%2e/push/x"],
      ["a push service on another port", () => "https://fcm.googleapis.com:8443/fcm/send/x"],
      ["a push service on port 1", () => "https://fcm.googleapis.com:1/fcm/send/x"],
      ["a name that only begins like a push service", () => "https://fcm.googleapis.com.evil.example/x"],
      ["a name that only ends like one", () => "https://evilfcm.googleapis.com/x"],
      ["an address", () => "https://127.0.0.1/x"],
      ["an address in hexadecimal", () => "https://0x7f.1/x"],
      ["the metadata address", () => "https://169.254.169.254/latest/meta-data/"],
      ["an IPv6 address", () => "https://[::1]/x"],
      ["an IPv4-mapped IPv6 address", () => "https://[::ffff:10.0.0.1]/x"],
      ["an internal name", () => "https://db.internal/x"],
    ])("refuses %s with 400, says why, and stores nothing", async (_name, endpoint) => {
      const c = await campus(production);
      const res = await send(c.headers, { endpoint: endpoint(), keys });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(PUSH_MESSAGES.endpointService);
      if (_protocol === "REST") {
        expect(res.json()).toMatchObject({
          code: "BAD_REQUEST",
          fieldErrors: { endpoint: [PUSH_MESSAGES.endpointService] },
        });
      }
      expect(
        await production.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, c.me.id)),
      ).toEqual([]);
    });

    it("refuses an endpoint with a user name with 400", async () => {
      const c = await campus(production);
      const res = await send(c.headers, { endpoint: "https://user@fcm.googleapis.com/fcm/send/x", keys });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(PUSH_MESSAGES.endpoint);
    });

    it("takes the browsers' push services and the configured ones, stored in one spelling", async () => {
      const c = await campus(production);
      const accepted = [
        ["https://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com/fcm/send/abc"],
        ["https://FCM.googleapis.com.:443/fcm/send/def", "https://fcm.googleapis.com/fcm/send/def"],
        [
          "https://updates.push.services.mozilla.com/wpush/v2/x",
          "https://updates.push.services.mozilla.com/wpush/v2/x",
        ],
        ["https://web.push.apple.com/QOi", "https://web.push.apple.com/QOi"],
        ["https://wns2-by3p.notify.windows.com/w/?token=x", "https://wns2-by3p.notify.windows.com/w/?token=x"],
        ["https://push.example.net/a", "https://push.example.net/a"],
        ["https://eu.push.example.org/a", "https://eu.push.example.org/a"],
      ];
      for (const [endpoint] of accepted) {
        const res = await send(c.headers, { endpoint: `${endpoint}-${_protocol}`, keys });
        expect(res.statusCode, endpoint).toBe(200);
      }
      const rows = await production.deps.db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, c.me.id));
      expect(rows.map((r) => r.endpoint).sort()).toEqual(accepted.map(([, stored]) => `${stored}-${_protocol}`).sort());
    });
  });
});
