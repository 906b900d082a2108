import { insertTestSchool } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../admin/service";
import { createTestApp, type TestApp } from "../../test/app";
import { countingCandidatePool } from "../../test/counting-pool";
import { campus } from "../../test/voters";

/**
 * Every change of who may be drawn tells the candidate pools (eligibility.ts), whichever
 * procedure makes it. A hold by reports is counted in security/report-and-block.test.ts. A block
 * changes no pool (pools hold a school's students, not a voter's view of them; the draw leaves
 * blocked pairs out), and is proven at once by modules/safety/http.test.ts.
 */
let invalidations: (number | undefined)[] = [];
let t: TestApp;
beforeAll(async () => {
  const counting = countingCandidatePool((schoolId) => invalidations.push(schoolId));
  t = await createTestApp({ candidatePool: counting.pool });
  counting.attach(t.deps.db);
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const trpc = (headers: Headers, path: string, payload: object) =>
  t.app.inject({ method: "POST", url: `/api/trpc/${path}`, headers, payload });

/** The change is made, and the pools heard of it: that school's, or all of them. */
async function expectInvalidated(change: () => Promise<{ statusCode: number; body: string }>, school?: number) {
  invalidations = [];
  const res = await change();
  expect(res.statusCode, res.body).toBe(200);
  expect(invalidations.length, "the pools were not told").toBeGreaterThan(0);
  for (const heard of invalidations) expect([undefined, school]).toContain(heard);
}

describe("a change of eligibility tells the candidate pools", () => {
  it("pausing and resuming the profile", async () => {
    const c = await campus(t);
    await expectInvalidated(() => trpc(c.headers, "account.pause", { paused: true }), c.school.id);
    await expectInvalidated(() => trpc(c.headers, "account.pause", { paused: false }), c.school.id);
  });

  it("the preview opt-in", async () => {
    const c = await campus(t);
    await expectInvalidated(() => trpc(c.headers, "account.preview", { showInPreview: false }));
  });

  it("a gender change and a school change", async () => {
    const c = await campus(t);
    await expectInvalidated(() => trpc(c.headers, "users.update", { gender: "female" }), c.school.id);
    const other = await insertTestSchool(t.deps.db);
    await expectInvalidated(() => trpc(c.headers, "users.update", { university: other.id }), other.id);
  });

  it("deleting the account", async () => {
    const c = await campus(t);
    await expectInvalidated(() => trpc(c.headers, "account.delete", { confirm: "DELETE" }));
  });

  it("a moderator removing a photo or a profile, or lifting a hold", async () => {
    const c = await campus(t);
    await grantAdmin(t.deps.db, c.me.phone);
    const [a, b, d] = [await c.student(), await c.student(), await c.student()];
    await expectInvalidated(() => trpc(c.headers, "admin.removePhoto", { userId: a.id }));
    await expectInvalidated(() => trpc(c.headers, "admin.restore", { userId: b.id }));
    await expectInvalidated(() => trpc(c.headers, "admin.removeProfile", { userId: d.id }));
  });
});
