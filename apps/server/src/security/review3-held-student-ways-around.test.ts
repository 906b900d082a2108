import { REPORTER_WEIGHT, REPORTS_TO_HOLD, ReviewQueue } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * A student held for review cannot delete their own account (409). The
 * other doors a held student might try: resuming, signing out and in, a
 * tRPC batch of deletions, moving school, the export, other methods on the
 * deletion route. None lifts the hold or empties the queue; a moderator's
 * removal still works.
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  c = await campus(t);
  await grantAdmin(t.deps.db, c.me.phone);
  admin = c.headers;
}, 60_000);
afterAll(() => t?.close());

const ESTABLISHED = new Date(Date.now() - (REPORTER_WEIGHT.youngAccountDays + 30) * 24 * 60 * 60 * 1000);
const headersOf = (token: string) => ({ authorization: `Bearer ${token}` });
const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

async function heldStudent() {
  const held = await c.student({ gender: "female", preference: "male" });
  const beside = await c.student({ gender: "female" });
  for (let i = 0; i < REPORTS_TO_HOLD; i++) {
    const reporter = await c.student({ gender: "male", preference: "female", createdAt: ESTABLISHED });
    await showTo(t, reporter.id, held.id, beside.id);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/safety.report",
      headers: headersOf((await sessionFor(t, reporter.phone)).token),
      payload: { target: { userId: held.id }, reason: "under_18" },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return held;
}

async function stillHeld(id: string, phone: string) {
  const me = await t.app.inject({
    method: "GET",
    url: "/api/users/me",
    headers: headersOf((await sessionFor(t, phone)).token),
  });
  expect(me.json()).toMatchObject({ id, heldForReview: true, paused: true });
  const entry = (await queue()).students.find((s) => s.userId === id);
  expect(entry).toMatchObject({ held: true });
  expect(entry!.reports).toHaveLength(REPORTS_TO_HOLD);
}

describe("a held student's other ways around the hold", () => {
  it("resuming (REST and tRPC) is refused and lifts nothing", async () => {
    const held = await heldStudent();
    const headers = headersOf((await sessionFor(t, held.phone)).token);
    const rest = await t.app.inject({ method: "POST", url: "/api/users/pause", headers, payload: { paused: false } });
    const trpc = await t.app.inject({
      method: "POST",
      url: "/api/trpc/account.pause",
      headers,
      payload: { paused: false },
    });
    expect([rest.statusCode, trpc.statusCode]).toEqual([403, 403]);
    await stillHeld(held.id, held.phone);
  });

  it("signing out and in again, then deleting: still 409", async () => {
    const held = await heldStudent();
    const first = await sessionFor(t, held.phone);
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      payload: { refreshToken: first.refreshToken },
    });
    expect(out.statusCode, out.body).toBe(200);
    const again = headersOf((await sessionFor(t, held.phone)).token);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: again,
      payload: { confirm: "DELETE" },
    });
    expect(res.statusCode).toBe(409);
    await stillHeld(held.id, held.phone);
  });

  it("a tRPC batch of deletions, and other methods on the route: none deletes", async () => {
    const held = await heldStudent();
    const headers = headersOf((await sessionFor(t, held.phone)).token);
    const batch = await t.app.inject({
      method: "POST",
      url: "/api/trpc/account.delete,account.delete?batch=1",
      headers,
      payload: { 0: { confirm: "DELETE" }, 1: { confirm: "DELETE" } },
    });
    expect(batch.statusCode).toBeGreaterThanOrEqual(400);
    expect(batch.statusCode).toBeLessThan(500);
    for (const method of ["DELETE", "PUT", "PATCH"] as const) {
      const res = await t.app.inject({
        method,
        url: "/api/users/delete-account",
        headers,
        payload: { confirm: "DELETE" },
      });
      expect(res.statusCode).toBe(404);
    }
    await stillHeld(held.id, held.phone);
  });

  it("moving school and exporting leave the hold and the reports in place", async () => {
    const held = await heldStudent();
    const headers = headersOf((await sessionFor(t, held.phone)).token);
    const other = await campus(t);
    const moved = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers,
      payload: { university: other.school.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const exported = await t.app.inject({ method: "GET", url: "/api/users/export", headers });
    expect(exported.statusCode).toBe(200);
    await stillHeld(held.id, held.phone);
  });

  it("a moderator's removal still removes the profile", async () => {
    const held = await heldStudent();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/admin.removeProfile",
      headers: admin,
      payload: { userId: held.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await queue()).students.some((s) => s.userId === held.id)).toBe(false);
  });
});
