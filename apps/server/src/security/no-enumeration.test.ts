import { routeList } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * docs/product.md "Limits": nothing lets a student list or enumerate other students
 * beyond the two candidates of a round. Every read a signed-in student can
 * make is swept for student ids; the only other students that may appear
 * are the two candidates of the caller's open round.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * Reads left out of the sweep, and why: the public landing preview shows two
 * students who opted in to it (rate limited per address, tested with the
 * rounds); the dev outbox is not served in production (tested with the app).
 */
const NOT_SWEPT = new Set(["rounds.preview", "dev.smsOutbox"]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe("no enumeration of students", () => {
  it("every read shows a student no other student than the two candidates of their round", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const others = await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.student({ gender: i % 2 ? "male" : "female" })),
    );
    const round = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json();
    const candidates = (round.users as { id: string }[]).map((u) => u.id);
    expect(candidates).toHaveLength(2);

    const allowed = new Set([c.me.id, ...candidates]);
    const reads = routeList.filter((route) => route.method === "GET" && !NOT_SWEPT.has(route.procedure));
    for (const route of reads) {
      const res = await t.app.inject({ method: "GET", url: `/api${route.path}`, headers: c.headers });
      const leaked = (res.body.match(UUID) ?? []).filter((id) => others.some((o) => o.id === id) && !allowed.has(id));
      expect(leaked, `${route.path} (${res.statusCode})`).toEqual([]);
    }
  });

  it("asking for a round again shows the same two students: a new pair costs a vote or a skip", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    await Promise.all(Array.from({ length: 10 }, () => c.student({ gender: "female" })));
    const ids = async () =>
      (
        (await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=false", headers: c.headers })).json()
          .users as { id: string }[]
      )
        .map((u) => u.id)
        .sort();
    const first = await ids();
    for (let i = 0; i < 5; i++) expect(await ids()).toEqual(first);
  });
});
