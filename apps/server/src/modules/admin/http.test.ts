import { adminAuditLog, reports, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus, sessionFor } from "../../test/voters";
import { grantAdmin } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const call = (headers: Record<string, string>, procedure: string, input?: object) =>
  input === undefined
    ? t.app.inject({ method: "GET", url: `/api/trpc/admin.${procedure}`, headers })
    : t.app.inject({ method: "POST", url: `/api/trpc/admin.${procedure}`, headers, payload: input });

async function setup() {
  const c = await campus(t);
  const adminUser = await c.student({ gender: "male" });
  await grantAdmin(t.deps.db, adminUser.phone);
  const admin = { authorization: `Bearer ${(await sessionFor(t, adminUser.phone)).token}` };
  const reported = await c.student({ firstName: "Reported", photoKey: "photos/r.jpg" });
  await t.deps.db
    .insert(reports)
    .values({ reporterId: c.me.id, reportedId: reported.id, reason: "inappropriate_photo" });
  await t.deps.db
    .update(users)
    .set({ pausedAt: new Date(), heldForReviewAt: new Date() })
    .where(eq(users.id, reported.id));
  return { c, admin, adminUser, reported };
}

describe("moderation", () => {
  it("is a 404 for anyone who is not an admin", async () => {
    const { c, reported } = await setup();
    for (const [procedure, input] of [
      ["reviewQueue", undefined],
      ["restore", { userId: reported.id }],
      ["removeProfile", { userId: reported.id }],
    ] as const) {
      const res = await call(c.headers, procedure, input);
      expect(res.statusCode, procedure).toBe(404);
    }
    expect((await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue" })).statusCode).toBe(401);
  });

  it("lists reported students, restores a held profile, and writes the audit log", async () => {
    const { admin, adminUser, reported } = await setup();
    const queue = (await call(admin, "reviewQueue")).json().result.data;
    const entry = queue.students.find((s: { userId: string }) => s.userId === reported.id);
    expect(entry).toMatchObject({ firstName: "Reported", held: true, reports: [{ reason: "Inappropriate photo" }] });

    expect((await call(admin, "restore", { userId: reported.id })).statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, reported.id));
    expect(row!.heldForReviewAt).toBeNull();
    expect(row!.pausedAt).toBeNull();
    const log = await t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, reported.id));
    expect(log.map((e) => [e.action, e.adminId])).toEqual([["restore", adminUser.id]]);
  });

  it("removes a photo (the profile becomes unverified) and removes a profile", async () => {
    const { admin, reported } = await setup();
    await call(admin, "removePhoto", { userId: reported.id });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, reported.id));
    expect(row).toMatchObject({ photoKey: null, isVerified: false });
    await call(admin, "removeProfile", { userId: reported.id });
    expect(await t.deps.db.select().from(users).where(eq(users.id, reported.id))).toHaveLength(0);
    const actions = (
      await t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, reported.id))
    ).map((e) => e.action);
    expect(actions.sort()).toEqual(["remove_photo", "remove_profile"]);
  });
});
