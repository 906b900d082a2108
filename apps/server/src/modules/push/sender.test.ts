import { pushNotice } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserSubscription,
  FAKE_PUSH_HOST,
  pushSenderFor,
  startFakePushService,
  verifyVapid,
  type FakePushService,
} from "../../test/push-service";
import type { Resolver } from "./address-guard";
import { pushEndpointPolicy } from "./endpoint-policy";
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

describe("where a push may go", () => {
  /** A resolver that answers these addresses for every name, and remembers what it was asked. */
  const resolving = (...addresses: string[]) => {
    const asked: string[] = [];
    const resolve: Resolver = async (hostname) => {
      asked.push(hostname);
      return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    };
    return { resolve, asked };
  };
  /** The fake push service, reached by a name the test's resolver answers. */
  const byName = (id: string) =>
    browserSubscription(`https://${FAKE_PUSH_HOST}:${new URL(service.origin).port}/push/${id}`);

  it("connects to the address it resolved and checked (the name is not in any real DNS)", async () => {
    const { resolve, asked } = resolving("127.0.0.1");
    const sender = pushSenderFor(service, undefined, { resolve });
    service.requests.length = 0;
    await sender.send(byName("named"), JSON.stringify(pushNotice(1)));
    expect(asked).toEqual([FAKE_PUSH_HOST]);
    expect(service.requests.map((r) => r.path)).toEqual(["/push/named"]);
  });

  it.each([
    ["loopback", ["127.0.0.1"]],
    ["a private network", ["10.1.2.3"]],
    ["the cloud metadata address", ["169.254.169.254"]],
    ["carrier-grade NAT", ["100.100.100.200"]],
    ["IPv6 loopback", ["::1"]],
    ["a unique-local IPv6 address", ["fd00:ec2::254"]],
    ["an IPv4-mapped loopback", ["::ffff:127.0.0.1"]],
    ["a public address beside a private one", ["8.8.8.8", "127.0.0.1"]],
  ])("in production refuses a name that resolves to %s, without connecting", async (_range, addresses) => {
    const { resolve, asked } = resolving(...addresses);
    const sender = pushSenderFor(service, undefined, { resolve, allowPrivateAddresses: false });
    service.requests.length = 0;
    const error = await sender.send(byName("rebound"), "{}").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushDeliveryError);
    expect((error as Error).message).toMatch(/not a public address/);
    expect(asked).toEqual([FAKE_PUSH_HOST]);
    expect(service.requests).toEqual([]);
  });

  it.each(["https://127.0.0.1:1/x", "https://[::1]/x", "https://169.254.169.254/x", "https://0x7f.1/x"])(
    "in production refuses the address literal %s, without a lookup or a connection",
    async (endpoint) => {
      const { resolve, asked } = resolving("127.0.0.1");
      const sender = pushSenderFor(service, undefined, { resolve, allowPrivateAddresses: false });
      const error = await sender.send(browserSubscription(endpoint), "{}").catch((e: unknown) => e);
      expect(error).toMatchObject({ gone: true, message: expect.stringMatching(/not a public address/) });
      expect(asked).toEqual([]);
    },
  );

  it("in production refuses, as gone, an endpoint stored before the push-service rule (a trailing dot)", async () => {
    const { resolve, asked } = resolving("127.0.0.1");
    const sender = pushSenderFor(service, undefined, {
      resolve,
      allowPrivateAddresses: false,
      endpoints: pushEndpointPolicy({ production: true }),
    });
    const error = await sender.send(browserSubscription("https://localhost./push/x"), "{}").catch((e: unknown) => e);
    expect(error).toMatchObject({ gone: true });
    expect(asked).toEqual([]);
  });

  it("never follows a redirect from the push service", async () => {
    const sender = pushSenderFor(service);
    service.requests.length = 0;
    for (const status of [301, 302, 307, 308]) {
      service.answer = (request) =>
        request.path === "/push/redirected"
          ? { status, headers: { location: `${service.origin}/push/elsewhere` } }
          : 201;
      const error = await sender.send(browserSubscription(service.endpoint("redirected")), "{}").catch((e) => e);
      expect(error).toMatchObject({ statusCode: status, gone: false });
    }
    service.answer = () => 201;
    expect(service.requests.map((r) => r.path)).toEqual(Array(4).fill("/push/redirected"));
  });
});
