import { pushNotice } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserSubscription,
  pushSenderFor,
  startFakePushService,
  verifyVapid,
  type FakePushService,
} from "../../test/push-service";
import { PushDeliveryError } from "./sender";

let service: FakePushService;
beforeAll(async () => {
  service = await startFakePushService();
});
afterAll(() => service?.close());

describe("sending a push through web-push to a local push service", () => {
  it("encrypts the notice for the subscription's keys (RFC 8291) and signs it with VAPID (RFC 8292)", async () => {
    const sender = pushSenderFor(service, "mailto:push@quad.example");
    const browser = browserSubscription(service.endpoint("device-1"));
    const before = Math.floor(Date.now() / 1000);

    await sender.send(browser, JSON.stringify(pushNotice(3)));

    const [request] = service.requests.splice(0);
    expect(request!.path).toBe("/push/device-1");
    expect(request!.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
    expect(JSON.parse(browser.decrypt(request!.body))).toEqual({
      title: "You got 3 new votes on Quad!",
      body: "Tap to see who voted for you.",
      url: "/home?votes=1",
      count: 3,
    });
    const { payload, protectedHeader } = await verifyVapid(request!, sender.publicKey);
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({ aud: service.origin, sub: "mailto:push@quad.example" });
    expect(payload.exp).toBeGreaterThan(before);
    expect(payload.exp).toBeLessThanOrEqual(before + 24 * 60 * 60);
  });

  it("another device's keys cannot read it", async () => {
    const sender = pushSenderFor(service);
    const browser = browserSubscription(service.endpoint("device-2"));
    const stranger = browserSubscription(service.endpoint("device-3"));
    await sender.send(browser, JSON.stringify(pushNotice(1)));
    const [request] = service.requests.splice(0);
    expect(() => stranger.decrypt(request!.body)).toThrow();
  });

  it("410 and 404 mean the subscription is gone; other answers may be retried", async () => {
    const sender = pushSenderFor(service);
    const browser = browserSubscription(service.endpoint("device-4"));
    for (const [status, gone] of [
      [410, true],
      [404, true],
      [500, false],
      [429, false],
    ] as const) {
      service.answer = () => status;
      const error = await sender.send(browser, "{}").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PushDeliveryError);
      expect(error).toMatchObject({ statusCode: status, gone });
    }
    service.answer = () => 201;
    service.requests.length = 0;
  });
});
