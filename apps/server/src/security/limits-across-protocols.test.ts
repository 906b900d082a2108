import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_PER_IP } from "../modules/rounds/router";
import { addressKey } from "../rate-limit/address";
import { WRITE_LIMITS } from "../trpc/limits";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * One budget per limit, however it is asked for. The attack: spend a limit
 * over REST, carry on over tRPC (plain and as a batch), with a forged
 * X-Forwarded-For on every request (TRUST_PROXY is off, the default) and a
 * path in other letter cases or with a trailing slash. None of it may buy
 * a single request more than the limit.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ADDRESS = "203.0.113.77";
let forged = 0;
const spoof = () => ({
  "x-forwarded-for": `198.51.100.${(forged++ % 250) + 1}`,
  "x-real-ip": `192.0.2.${(forged % 250) + 1}`,
});

describe("limits hold across protocols, forged addresses and spellings", () => {
  it(`the landing preview: ${PREVIEW_PER_IP.limit} a minute per address, REST and tRPC together`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PREVIEW_PER_IP.limit; i++) {
      const url = [
        "/api/prompts/unauthenticated?gender=female",
        "/api/trpc/rounds.preview?input=" + encodeURIComponent(JSON.stringify({ gender: "male" })),
        "/api/prompts/unauthenticated/?gender=male",
      ][i % 3]!;
      statuses.push((await t.app.inject({ method: "GET", url, headers: spoof(), remoteAddress: ADDRESS })).statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const after = [
      await t.app.inject({
        method: "GET",
        url: "/api/prompts/unauthenticated?gender=female",
        headers: spoof(),
        remoteAddress: ADDRESS,
      }),
      await t.app.inject({
        method: "GET",
        url: "/api/trpc/rounds.preview?input=" + encodeURIComponent(JSON.stringify({ gender: "female" })),
        headers: spoof(),
        remoteAddress: ADDRESS,
      }),
      await t.app.inject({
        method: "GET",
        url:
          "/api/trpc/rounds.preview,rounds.preview?batch=1&input=" +
          encodeURIComponent(JSON.stringify({ 0: { gender: "female" }, 1: { gender: "male" } })),
        headers: spoof(),
        remoteAddress: ADDRESS,
      }),
    ];
    for (const res of after) expect(res.statusCode, res.body).toBe(429);
    // Other spellings of the path are not another door: they are no route at all.
    for (const url of [
      "/api/Prompts/unauthenticated?gender=female",
      "/api/trpc/Prompts.unauthenticated?input=" + encodeURIComponent(JSON.stringify({ gender: "female" })),
    ]) {
      expect((await t.app.inject({ method: "GET", url, remoteAddress: ADDRESS })).statusCode, url).toBe(404);
    }
  });

  it(`a write: ${WRITE_LIMITS.perStudent.limit} a minute per student, REST and tRPC together, from any address`, async () => {
    const c = await campus(t);
    const target = { userId: "00000000-0000-4000-8000-000000000000" };
    const statuses: number[] = [];
    for (let i = 0; i < WRITE_LIMITS.perStudent.limit; i++) {
      const url = i % 2 ? "/api/safety/unblock" : "/api/trpc/safety.unblock";
      // A fresh address for every request: the per-address limit is not what stops this.
      statuses.push(
        (
          await t.app.inject({
            method: "POST",
            url,
            headers: { ...c.headers, ...spoof() },
            payload: target,
            remoteAddress: `10.77.${i >> 8}.${i & 255}`,
          })
        ).statusCode,
      );
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const url of ["/api/safety/unblock", "/api/trpc/safety.unblock", "/api/safety/unblock/"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { ...c.headers, ...spoof() },
        payload: target,
        remoteAddress: "10.78.0.1",
      });
      expect(res.statusCode, url).toBe(429);
      expect(Number(res.headers["retry-after"]), url).toBeGreaterThan(0);
    }
  });

  it("an IPv6 client counts by its /64: rotating addresses inside it buys nothing; IPv4 written as IPv6 is that IPv4", async () => {
    const preview = (remoteAddress: string) =>
      t.app.inject({ method: "GET", url: "/api/prompts/unauthenticated?gender=female", remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < PREVIEW_PER_IP.limit; i++)
      statuses.push((await preview(`2001:db8:77:1:${(i + 1).toString(16)}::${i}`)).statusCode);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect((await preview("2001:db8:77:1:ffff:ffff:ffff:fffe")).statusCode).toBe(429);
    expect((await preview("2001:0DB8:0077:0001::1")).statusCode).toBe(429);
    expect((await preview("2001:db8:77:2::1")).statusCode).toBe(200);

    for (let i = 0; i < PREVIEW_PER_IP.limit; i++)
      expect((await preview(i % 2 ? "198.51.100.9" : "::ffff:198.51.100.9")).statusCode).toBe(200);
    expect((await preview("198.51.100.9")).statusCode).toBe(429);
    expect((await preview("::ffff:198.51.100.9")).statusCode).toBe(429);
  });

  it("addressKey", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("unknown")).toBe("unknown");
  });
});
