import { and, eq, gte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCheckViolation, isForeignKeyViolation, isUniqueViolation, pgErrorOf } from "../errors";
import {
  createTestDatabase,
  deliveredAt,
  insertTestPrompt,
  insertTestSchool,
  insertTestUser,
  type TestDatabase,
} from "../testing/index";
import {
  blocks,
  paymentFulfilments,
  purchases,
  reports,
  rounds,
  unlocks,
  users,
  voterState,
  votes,
  type Prompt,
  type School,
} from "./index";

/** The error a statement fails with (fails the test when it succeeds). */
async function failure(statement: PromiseLike<unknown>): Promise<unknown> {
  try {
    await statement;
  } catch (error) {
    return error;
  }
  throw new Error("expected the statement to fail");
}

describe("database invariants", () => {
  let t: TestDatabase;
  let school: School;
  let prompt: Prompt;
  beforeAll(async () => {
    t = await createTestDatabase();
    school = await insertTestSchool(t.db);
    prompt = await insertTestPrompt(t.db);
  });
  afterAll(() => t?.close());

  const student = (overrides: Partial<Omit<typeof users.$inferInsert, "schoolId">> & { member?: boolean } = {}) =>
    insertTestUser(t.db, { schoolId: school.id, ...overrides });

  describe("school membership", () => {
    it("a proof names one of the student's own school's domains, so moving school without clearing it is refused", async () => {
      const other = await insertTestSchool(t.db);
      const u = await student({ schoolEmail: "ada@" + school.domain });
      expect(u.schoolEmailDomain).toBe(school.domain);
      expect(
        isForeignKeyViolation(
          await failure(t.db.update(users).set({ schoolId: other.id }).where(eq(users.id, u.id))),
          "users_school_email_domain_fk",
        ),
      ).toBe(true);
      expect(
        isForeignKeyViolation(
          await failure(t.db.update(users).set({ schoolEmailDomain: other.domain }).where(eq(users.id, u.id))),
          "users_school_email_domain_fk",
        ),
      ).toBe(true);
      const moved = await t.db
        .update(users)
        .set({
          schoolId: other.id,
          schoolEmail: null,
          schoolEmailCanonical: null,
          schoolEmailDomain: null,
          schoolVerifiedAt: null,
        })
        .where(eq(users.id, u.id))
        .returning();
      expect(moved[0]).toMatchObject({ schoolId: other.id, schoolVerifiedAt: null });
    });

    it("one address proves one account, stored in lower case, never without a proof", async () => {
      await student({ schoolEmail: "grace@" + school.domain });
      expect(
        isUniqueViolation(
          await failure(student({ schoolEmail: "grace@" + school.domain })),
          "users_school_email_unique",
        ),
      ).toBe(true);
      expect(
        isCheckViolation(await failure(student({ schoolEmail: "Linus@" + school.domain })), "users_school_email_lower"),
      ).toBe(true);
      // One mailbox: the same name at another of the school's domains is the same key.
      expect(
        isUniqueViolation(
          await failure(
            student({ schoolEmail: "grace@alias-" + school.domain, schoolEmailCanonical: "grace@" + school.domain }),
          ),
          "users_school_email_canonical_unique",
        ),
      ).toBe(true);
      // The mailbox goes with the address, and names the same local part.
      expect(
        isCheckViolation(
          await failure(student({ schoolEmail: "kay@" + school.domain, schoolEmailCanonical: null })),
          "users_school_email_canonical_whole",
        ),
      ).toBe(true);
      expect(
        isCheckViolation(
          await failure(student({ schoolEmail: "kay@" + school.domain, schoolEmailCanonical: "jo@" + school.domain })),
          "users_school_email_canonical_whole",
        ),
      ).toBe(true);
      expect(
        isCheckViolation(
          await failure(student({ member: false, schoolEmail: "alan@" + school.domain })),
          "users_school_email_proved",
        ),
      ).toBe(true);
      expect(
        isCheckViolation(
          await failure(student({ member: false, schoolVerifiedAt: new Date() })),
          "users_school_proof_whole",
        ),
      ).toBe(true);
    });
  });

  describe("unlock credits", () => {
    it("a conditional decrement stops at zero", async () => {
      const u = await student({ remainingUnlocks: 1 });
      const spend = () =>
        t.db
          .update(users)
          .set({ remainingUnlocks: sql`${users.remainingUnlocks} - 1` })
          .where(and(eq(users.id, u.id), gte(users.remainingUnlocks, 1)))
          .returning({ left: users.remainingUnlocks });
      expect(await spend()).toEqual([{ left: 0 }]);
      expect(await spend()).toEqual([]);
    });

    it("concurrent spends never overdraw", async () => {
      const u = await student({ remainingUnlocks: 2 });
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.db
            .update(users)
            .set({ remainingUnlocks: sql`${users.remainingUnlocks} - 1` })
            .where(and(eq(users.id, u.id), gte(users.remainingUnlocks, 1)))
            .returning({ left: users.remainingUnlocks }),
        ),
      );
      expect(results.filter((r) => r.length === 1)).toHaveLength(2);
      const [after] = await t.db.select().from(users).where(eq(users.id, u.id));
      expect(after?.remainingUnlocks).toBe(0);
    });

    it("an unconditional decrement below zero violates the CHECK", async () => {
      const u = await student({ remainingUnlocks: 0 });
      const error = await failure(
        t.db
          .update(users)
          .set({ remainingUnlocks: sql`${users.remainingUnlocks} - 1` })
          .where(eq(users.id, u.id)),
      );
      expect(isCheckViolation(error, "users_remaining_unlocks_nonnegative")).toBe(true);
    });
  });

  describe("users", () => {
    it("one account per phone", async () => {
      const u = await student();
      const error = await failure(student({ phone: u.phone }));
      expect(isUniqueViolation(error, "users_phone_unique")).toBe(true);
    });

    it("phones are E.164 US numbers", async () => {
      expect(isCheckViolation(await failure(student({ phone: "5555550123" })), "users_phone_e164_us")).toBe(true);
      expect(isCheckViolation(await failure(student({ phone: "+4420123456" })), "users_phone_e164_us")).toBe(true);
    });

    it("graduation year is 2025..2100 or null", async () => {
      const error = await failure(student({ graduationYear: 2101 }));
      expect(isCheckViolation(error, "users_graduation_year_range")).toBe(true);
      expect(isCheckViolation(await failure(student({ graduationYear: 2024 })), "users_graduation_year_range")).toBe(
        true,
      );
      // A class keeps its year after it graduates, whatever the wizard offers today.
      await expect(student({ graduationYear: 2025 })).resolves.toBeTruthy();
      await expect(student({ graduationYear: null, isVerified: false })).resolves.toBeTruthy();
    });

    it("only a complete profile with a photo can be verified", async () => {
      const error = await failure(student({ photoKey: null }));
      expect(isCheckViolation(error, "users_verified_profile_complete")).toBe(true);
      const draft = await student({ photoKey: null, isVerified: false });
      expect(draft.isVerified).toBe(false);
    });

    it("array columns default to empty", async () => {
      const u = await student();
      expect(u).toMatchObject({ organizations: [], interests: [], emojis: [], role: "student", remainingUnlocks: 0 });
    });
  });

  describe("payments", () => {
    it("a fulfilment is recorded exactly once", async () => {
      const u = await student();
      const [purchase] = await t.db
        .insert(purchases)
        .values({
          userId: u.id,
          productId: "unlock-3",
          kind: "unlock",
          amountCents: 799,
          provider: "local",
          providerPaymentId: `pi_${u.id}`,
        })
        .returning();
      const fulfil = () =>
        t.db
          .insert(paymentFulfilments)
          .values({ providerPaymentId: purchase!.providerPaymentId, purchaseId: purchase!.id })
          .onConflictDoNothing()
          .returning();
      expect(await fulfil()).toHaveLength(1);
      expect(await fulfil()).toHaveLength(0);
    });

    it("amounts are positive and payment ids unique", async () => {
      const values = {
        productId: "boost-1",
        kind: "boost" as const,
        amountCents: 0,
        provider: "stripe" as const,
        providerPaymentId: "pi_dup",
      };
      expect(isCheckViolation(await failure(t.db.insert(purchases).values(values)), "purchases_amount_positive")).toBe(
        true,
      );
      await t.db.insert(purchases).values({ ...values, amountCents: 499 });
      const error = await failure(t.db.insert(purchases).values({ ...values, amountCents: 499 }));
      expect(isUniqueViolation(error, "purchases_provider_payment_id_unique")).toBe(true);
    });
  });

  describe("rounds and votes", () => {
    it("a voter has at most one open round: it is their voter_state row; rounds holds only ended rounds", async () => {
      const [voter, a, b] = await Promise.all([student(), student(), student()]);
      const open = {
        userId: voter.id,
        roundPromptId: prompt.id,
        roundCandidateAId: a.id,
        roundCandidateBId: b.id,
        roundOpenedAt: new Date(),
        roundOpen: true,
      };
      await t.db.insert(voterState).values(open);
      expect(isUniqueViolation(await failure(t.db.insert(voterState).values(open)), "voter_state_pkey")).toBe(true);
      const incomplete = await failure(
        t.db.update(voterState).set({ roundOpenedAt: null }).where(eq(voterState.userId, voter.id)),
      );
      expect(isCheckViolation(incomplete, "voter_state_round_complete")).toBe(true);
      const same = await failure(
        t.db.update(voterState).set({ roundCandidateBId: a.id }).where(eq(voterState.userId, voter.id)),
      );
      expect(isCheckViolation(same, "voter_state_round_distinct_candidates")).toBe(true);
      const self = await failure(
        t.db.update(voterState).set({ roundCandidateAId: voter.id }).where(eq(voterState.userId, voter.id)),
      );
      expect(isCheckViolation(self, "voter_state_round_voter_not_candidate")).toBe(true);

      const stillOpen = await failure(
        t.db
          .insert(rounds)
          .values({ voterId: voter.id, promptId: prompt.id, candidateAId: a.id, candidateBId: b.id, status: "open" }),
      );
      expect(isCheckViolation(stillOpen, "rounds_ended")).toBe(true);
    });

    it("a round shows two different candidates, neither the voter, and closes with a time", async () => {
      const [voter, a] = await Promise.all([student(), student()]);
      const base = { promptId: prompt.id, status: "skipped" as const, closedAt: new Date() };
      const same = await failure(
        t.db.insert(rounds).values({ ...base, voterId: voter.id, candidateAId: a.id, candidateBId: a.id }),
      );
      expect(isCheckViolation(same, "rounds_distinct_candidates")).toBe(true);
      const self = await failure(
        t.db.insert(rounds).values({ ...base, voterId: voter.id, candidateAId: voter.id, candidateBId: a.id }),
      );
      expect(isCheckViolation(self, "rounds_voter_not_candidate")).toBe(true);
      const b = await student();
      const closedWithoutTime = await failure(
        t.db.insert(rounds).values({
          ...base,
          voterId: voter.id,
          candidateAId: a.id,
          candidateBId: b.id,
          status: "voted",
          closedAt: null,
        }),
      );
      expect(isCheckViolation(closedWithoutTime, "rounds_closed_at_matches_status")).toBe(true);
    });

    it("a deleted voter's vote stays, anonymous", async () => {
      const [voter, a, b] = await Promise.all([student(), student(), student()]);
      const [stored] = await t.db
        .insert(votes)
        .values({
          voterId: voter.id,
          recipientId: a.id,
          shownWithId: b.id,
          promptId: prompt.id,
          ...deliveredAt(),
        })
        .returning();
      await t.db.delete(users).where(eq(users.id, voter.id));
      const [kept] = await t.db.select().from(votes).where(eq(votes.id, stored!.id));
      expect(kept).toMatchObject({ voterId: null, recipientId: a.id });
    });

    it("allowances stay within their limits", async () => {
      const u = await student();
      const error = await failure(t.db.insert(voterState).values({ userId: u.id, votesInBatch: 13 }));
      expect(isCheckViolation(error, "voter_state_votes_in_batch_range")).toBe(true);
      const skips = await failure(t.db.insert(voterState).values({ userId: u.id, skipsInRow: 4 }));
      expect(isCheckViolation(skips, "voter_state_skips_in_row_range")).toBe(true);
    });
  });

  describe("unlocks and safety", () => {
    it("an owner unlocks a voter once", async () => {
      const [owner, voter] = await Promise.all([student(), student()]);
      const unlock = () =>
        t.db.insert(unlocks).values({ ownerId: owner.id, voterId: voter.id }).onConflictDoNothing().returning();
      expect(await unlock()).toHaveLength(1);
      expect(await unlock()).toHaveLength(0);
      const error = await failure(t.db.insert(unlocks).values({ ownerId: owner.id, voterId: voter.id }));
      expect(isUniqueViolation(error, "unlocks_owner_voter_unique")).toBe(true);
    });

    it("nobody blocks or reports themselves; one report per pair", async () => {
      const [u, v] = await Promise.all([student(), student()]);
      expect(isCheckViolation(await failure(t.db.insert(blocks).values({ blockerId: u.id, blockedId: u.id })))).toBe(
        true,
      );
      await t.db.insert(reports).values({ reporterId: u.id, reportedId: v.id, reason: "fake_profile" });
      const error = await failure(t.db.insert(reports).values({ reporterId: u.id, reportedId: v.id, reason: "other" }));
      expect(isUniqueViolation(error, "reports_reporter_reported_unique")).toBe(true);
    });
  });

  it("pgErrorOf finds nothing in non-database errors", () => {
    expect(pgErrorOf(new Error("plain"))).toBeUndefined();
    expect(pgErrorOf(undefined)).toBeUndefined();
  });
});
