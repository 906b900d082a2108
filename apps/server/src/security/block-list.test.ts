import { unlocks, users } from "@quad/db/schema";
import { insertTestSchool } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus } from "../test/voters";
import { receiveVotes } from "../test/votes";

/** A move to another school clears the proof of membership (as the profile service does). */
const NO_PROOF = { schoolEmail: null, schoolEmailDomain: null, schoolVerifiedAt: null };

/**
 * The block list must not follow a student out of the school. A photo is
 * public only to students of the same school (docs/product.md "What others
 * may see"); an unlocked voter's photo is the recipient's to see wherever
 * the voter is. The attack: block someone a round showed you, and keep
 * reading their photo from the block list after they moved to another
 * school and put up a new one there. Over REST and tRPC.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Blocked = { userId: string; firstName: string; photo: string | null };
async function listBlocked(via: "rest" | "trpc", headers: Record<string, string>): Promise<Blocked[]> {
  if (via === "rest") return (await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers })).json().blocked;
  return (await t.app.inject({ method: "GET", url: "/api/trpc/safety.blocks", headers })).json().result.data.blocked;
}
const photoOf = (list: Blocked[], id: string) => list.find((b) => b.userId === id)?.photo;

describe("the block list and students who left the school", () => {
  it("shows a blocked candidate's photo while they share the school, not the one they put up elsewhere", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const mover = await c.student({ gender: "female", firstName: "Mover", photoKey: "photos/mover-here.jpg" });
    const stayer = await c.student({ gender: "female", firstName: "Stayer", photoKey: "photos/stayer.jpg" });
    await showTo(t, c.me.id, mover.id, stayer.id);
    await showTo(t, c.me.id, stayer.id, mover.id);
    for (const id of [mover.id, stayer.id]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/safety/block",
        headers: c.headers,
        payload: { userId: id },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const via of ["rest", "trpc"] as const) {
      const list = await listBlocked(via, c.headers);
      expect(photoOf(list, mover.id), via).toBe("/api/media/photos/mover-here.jpg");
      expect(photoOf(list, stayer.id), via).toBe("/api/media/photos/stayer.jpg");
    }

    const elsewhere = await insertTestSchool(t.deps.db);
    await t.deps.db
      .update(users)
      .set({ schoolId: elsewhere.id, photoKey: "photos/mover-new-school.jpg", ...NO_PROOF })
      .where(eq(users.id, mover.id));
    for (const via of ["rest", "trpc"] as const) {
      const list = await listBlocked(via, c.headers);
      // Still listed, so the block can be undone; the new school's photo is not the blocker's to see.
      expect(list.map((b) => b.userId).sort(), via).toEqual([mover.id, stayer.id].sort());
      expect(photoOf(list, mover.id), via).toBeNull();
      expect(photoOf(list, stayer.id), via).toBe("/api/media/photos/stayer.jpg");
      const raw = await t.app.inject({
        method: "GET",
        url: via === "rest" ? "/api/safety/blocks" : "/api/trpc/safety.blocks",
        headers: c.headers,
      });
      expect(raw.body, via).not.toContain("mover-new-school");
    }
  });

  it("keeps showing an unlocked voter's photo wherever they are, as the inbox does", async () => {
    const c = await campus(t, { gender: "female" });
    const voter = await c.student({ gender: "male", photoKey: "photos/voter.jpg" });
    const { votes } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id], at: new Date() });
    await t.deps.db.insert(unlocks).values({ ownerId: c.me.id, voterId: voter.id });
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/safety/block",
          headers: c.headers,
          payload: { voteCardId: votes[0]!.id },
        })
      ).statusCode,
    ).toBe(200);
    const elsewhere = await insertTestSchool(t.deps.db);
    await t.deps.db
      .update(users)
      .set({ schoolId: elsewhere.id, ...NO_PROOF })
      .where(eq(users.id, voter.id));
    for (const via of ["rest", "trpc"] as const)
      expect(photoOf(await listBlocked(via, c.headers), voter.id), via).toBe("/api/media/photos/voter.jpg");
  });
});
