import { SCHOOL_EMAIL_CODE, SCHOOL_EMAIL_MESSAGES } from "@quad/contracts";
import { insertTestSchool } from "@quad/db/testing";
import { emailOutbox, schoolEmailCodes, schoolEmailDomains, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { VIAS, schoolEmailRequests } from "../test/school-email";
import { showTo } from "../test/shown";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";
import { receiveVotes } from "../test/votes";

/**
 * Only proved members of a school see its students, and only they are
 * shown: an address at one of the school's domains, proved by an e-mailed
 * code, once per address. Every attack runs over REST and tRPC.
 */

const clock = testClock("2026-03-02T15:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());

const { call, sendCode, verify, codeIn } = schoolEmailRequests(() => t.app);

/** A campus whose signed-in student has not proved a school address yet. */
async function newcomerCampus() {
  const c = await campus(t, { member: false });
  return { ...c, domain: c.school.domain };
}

let n = 0;
const unique = (name: string) => `${name}${++n}`;

describe("the address must be the school's", () => {
  it.each(VIAS)(
    "an address of another school, or of no school, is refused with the school's name, and nothing is sent (%s)",
    async (via) => {
      const c = await newcomerCampus();
      const other = await insertTestSchool(t.deps.db);
      for (const address of [
        `${unique("ada")}@${other.domain}`,
        `${unique("ada")}@gmail.com`,
        `${unique("ada")}@evil-${c.domain}`,
        `${unique("ada")}@${c.domain}.evil.com`,
      ]) {
        const res = await sendCode(via, c.headers, address);
        expect(res.status, address).toBe(400);
        expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.notSchool(c.school.name, c.domain));
        expect(res.fieldErrors?.email).toEqual([res.message]);
      }
      expect(await t.deps.db.select().from(schoolEmailCodes).where(eq(schoolEmailCodes.userId, c.me.id))).toEqual([]);
    },
  );

  it.each(VIAS)("a subdomain the school lists counts, and case and spaces do not matter (%s)", async (via) => {
    const c = await newcomerCampus();
    await t.deps.db.insert(schoolEmailDomains).values({ domain: `cs.${c.domain}`, schoolId: c.school.id });
    const address = `${unique("grace")}@cs.${c.domain}`;
    expect((await sendCode(via, c.headers, `  ${address.toUpperCase()} `)).status).toBe(200);
    const res = await verify(via, c.headers, address.toUpperCase(), await codeIn(address));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ schoolEmailVerified: true, schoolEmail: address });
  });

  it.each(VIAS)("malformed addresses and codes are 400s with a field message (%s)", async (via) => {
    const c = await newcomerCampus();
    for (const email of ["", "not-an-address", "a@b", `${"x".repeat(250)}@${c.domain}`]) {
      const res = await sendCode(via, c.headers, email);
      expect(res.status, email).toBe(400);
      expect(res.fieldErrors?.email?.length, email).toBeGreaterThan(0);
    }
    expect((await verify(via, c.headers, `a@${c.domain}`, "12345")).status).toBe(400);
  });
});

describe("one address proves one account", () => {
  it.each(VIAS)(
    "a second account learns the address is taken only after proving it reads that inbox (%s)",
    async (via) => {
      const c = await newcomerCampus();
      const address = `${unique("alan")}@${c.domain}`;
      await sendCode(via, c.headers, address);
      expect((await verify(via, c.headers, address, await codeIn(address))).status).toBe(200);

      const rival = await c.student({ member: false });
      const rivalHeaders = { authorization: `Bearer ${(await sessionFor(t, rival.phone)).token}` };
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      // Sending says nothing about whether the address is someone's...
      const sent = await sendCode(via, rivalHeaders, address);
      expect(sent.status).toBe(200);
      // ...entering its code does, to whoever reads the inbox.
      const res = await verify(via, rivalHeaders, address, await codeIn(address));
      expect(res.status).toBe(409);
      expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.taken);
      const [row] = await t.deps.db
        .select({ schoolEmail: users.schoolEmail, at: users.schoolVerifiedAt })
        .from(users)
        .where(eq(users.id, rival.id));
      expect(row).toEqual({ schoolEmail: null, at: null });
    },
  );

  it("two accounts proving one address at the same moment: exactly one wins", async () => {
    const c = await newcomerCampus();
    const address = `${unique("race")}@${c.domain}`;
    const second = await c.student({ member: false });
    const secondHeaders = { authorization: `Bearer ${(await sessionFor(t, second.phone)).token}` };
    await sendCode("rest", c.headers, address);
    const firstCode = await codeIn(address);
    clock.advance(1000);
    await sendCode("trpc", secondHeaders, address);
    const secondCode = await codeIn(address);
    const results = await Promise.all([
      verify("rest", c.headers, address, firstCode),
      verify("trpc", secondHeaders, address, secondCode),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = await t.deps.db.select({ id: users.id }).from(users).where(eq(users.schoolEmail, address));
    expect(owners).toHaveLength(1);
  });
});

describe("until the proof", () => {
  it.each(VIAS)(
    "a newcomer gets a clear 403 from every voting, reporting, blocking and inbox endpoint (%s)",
    async (via) => {
      const c = await newcomerCampus();
      const a = await c.student({ gender: "female" });
      const b = await c.student({ gender: "female" });
      await showTo(t, c.me.id, a.id, b.id);
      const {
        votes: [vote],
      } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [a.id], at: clock.now() });
      const attempts = [
        call(via, "GET", "/api/prompts/random", "rounds.open", c.headers),
        call(via, "POST", "/api/votes/store", "rounds.vote", c.headers, { userId: a.id, promptId: 1 }),
        call(via, "GET", "/api/votes/for-user", "inbox.received", c.headers, { page: 1, limit: 10 }),
        call(via, "POST", "/api/unlocks/unlock-user", "inbox.unlock", c.headers, { userId: vote!.id }),
        call(via, "POST", "/api/safety/report", "safety.report", c.headers, {
          target: { userId: a.id },
          reason: "harassment",
        }),
        call(via, "POST", "/api/safety/block", "safety.block", c.headers, { userId: a.id }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, res.raw).toBe(403);
        expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.verifyToVote);
      }
      // What they can still do: see and edit their profile, export their data.
      expect((await call(via, "GET", "/api/users/me", "users.me", c.headers)).data).toMatchObject({
        schoolEmailVerified: false,
        schoolEmail: null,
      });
      expect(
        (
          await t.app.inject({
            method: "PATCH",
            url: "/api/users/update",
            headers: c.headers,
            payload: { firstName: "Still Me" },
          })
        ).statusCode,
      ).toBe(200);
      const exported = await call(via, "GET", "/api/users/export", "account.export", c.headers);
      expect(exported.status).toBe(200);
      expect((exported.data as { votesReceived: unknown[] }).votesReceived).toHaveLength(1);
    },
  );

  it("a newcomer is in no round and no landing preview, and is drawn once proved", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const member = await c.student({ gender: "female", showInPreview: true });
    const newcomer = await c.student({ gender: "female", showInPreview: true, member: false });
    // Two students of the shown gender, one of them unproved: no pair to show.
    const before = await call("rest", "GET", "/api/prompts/random", "rounds.open", c.headers);
    expect(before.data).toMatchObject({ error: "no_candidates" });
    expect((await t.deps.candidatePool.candidates(c.school.id, "female")).map((e) => e.id)).toEqual([member.id]);
    expect(
      (await t.deps.candidatePool.previewSchools("female")).get(c.school.id)?.map((e) => e.id) ?? [],
    ).not.toContain(newcomer.id);
    for (let i = 0; i < 40; i++) {
      const res = await t.app.inject({ method: "GET", url: "/api/prompts/unauthenticated?gender=female" });
      for (const user of (res.json() as { users?: { id: string }[] }).users ?? [])
        expect(user.id).not.toBe(newcomer.id);
    }
    // Proved: now drawn (only the two of them are drawable, so the next round shows both).
    const headers = { authorization: `Bearer ${(await sessionFor(t, newcomer.phone)).token}` };
    const address = `${unique("nova")}@${c.school.domain}`;
    await sendCode("trpc", headers, address);
    expect((await verify("trpc", headers, address, await codeIn(address))).status).toBe(200);
    const round = await call("rest", "GET", "/api/prompts/random", "rounds.open", c.headers);
    expect((round.data as { users: { id: string }[] }).users.map((u) => u.id).sort()).toEqual(
      [member.id, newcomer.id].sort(),
    );
  });

  it("an open round showing a student who left the school is replaced", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const trio = await Promise.all([0, 1, 2].map(() => c.student({ gender: "female" })));
    const first = (await call("rest", "GET", "/api/prompts/random", "rounds.open", c.headers)).data as {
      users: { id: string }[];
    };
    const shown = first.users.map((u) => u.id);
    // One of them moves school: the move clears their proof, so they are no longer shown here.
    const other = await insertTestSchool(t.deps.db);
    const mover = await t.deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, shown[0]!));
    const moverHeaders = { authorization: `Bearer ${(await sessionFor(t, mover[0]!.phone)).token}` };
    const moved = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: moverHeaders,
      payload: { university: other.id },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().user).toMatchObject({ university: other.id, schoolEmailVerified: false, schoolEmail: null });
    const next = (await call("rest", "GET", "/api/prompts/random", "rounds.open", c.headers)).data as {
      users: { id: string }[];
    };
    expect(next.users.map((u) => u.id)).not.toContain(shown[0]);
    expect(trio.map((s) => s.id)).toEqual(expect.arrayContaining(next.users.map((u) => u.id)));
  });
});

describe("the address is private", () => {
  it("never reaches another student, is in the owner's export, and goes with the account", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const owner = await c.student({ gender: "female", member: false });
    const ownerHeaders = { authorization: `Bearer ${(await sessionFor(t, owner.phone)).token}` };
    const address = `${unique("private.person")}@${c.school.domain}`;
    await sendCode("rest", ownerHeaders, address);
    expect((await verify("rest", ownerHeaders, address, await codeIn(address))).status).toBe(200);
    await c.student({ gender: "female" });

    // Everything another student can reach about the owner: rounds, the inbox with an unlocked vote, blocks.
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++)
      bodies.push(
        (await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: c.headers })).body,
      );
    await t.deps.db.update(users).set({ remainingUnlocks: 1 }).where(eq(users.id, c.me.id));
    const {
      votes: [vote],
    } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [owner.id], at: clock.now() });
    bodies.push(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/unlocks/unlock-user",
          headers: c.headers,
          payload: { userId: vote!.id },
        })
      ).body,
    );
    bodies.push((await t.app.inject({ method: "GET", url: "/api/votes/for-user", headers: c.headers })).body);
    bodies.push(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/safety/block",
          headers: c.headers,
          payload: { userId: owner.id },
        })
      ).body,
    );
    bodies.push((await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers: c.headers })).body);
    bodies.push((await t.app.inject({ method: "GET", url: "/api/users/export", headers: c.headers })).body);
    bodies.push((await t.app.inject({ method: "GET", url: "/api/schools" })).body);
    expect(bodies.join("\n")).toContain(owner.id);
    expect(bodies.join("\n").toLowerCase()).not.toContain(address);

    const exported = (await t.app.inject({ method: "GET", url: "/api/users/export", headers: ownerHeaders })).json();
    expect(exported.profile).toMatchObject({ schoolEmail: address, schoolEmailVerified: true });
    expect(exported.emails).toEqual([expect.objectContaining({ to: address, status: "sent" })]);

    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/users/delete-account",
          headers: ownerHeaders,
          payload: { confirm: "DELETE" },
        })
      ).statusCode,
    ).toBe(200);
    expect(await t.deps.db.select().from(users).where(eq(users.schoolEmail, address))).toEqual([]);
    expect(await t.deps.db.select().from(schoolEmailCodes).where(eq(schoolEmailCodes.address, address))).toEqual([]);
    expect(await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address))).toEqual([]);
  });

  it("codes are stored only as keyed hashes", async () => {
    const c = await newcomerCampus();
    const address = `${unique("hash")}@${c.domain}`;
    await sendCode("rest", c.headers, address);
    const code = await codeIn(address);
    const rows = await t.deps.db.select().from(schoolEmailCodes).where(eq(schoolEmailCodes.address, address));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});

describe("the address is never logged", () => {
  it("not by the request logs, the development outbox's query string, a refusal or a failed send", async () => {
    const lines: string[] = [];
    const failing = { send: async () => Promise.reject(new Error("550 5.1.1 <gone@x.edu>: mailbox unavailable")) };
    const logged = await createTestApp({
      env: { LOG_LEVEL: "trace" },
      logStream: { write: (line) => void lines.push(line) },
    });
    const broken = await createTestApp({
      env: { LOG_LEVEL: "trace" },
      logStream: { write: (line) => void lines.push(line) },
      email: failing,
    });
    try {
      for (const app of [logged, broken]) {
        const c = await campus(app, { member: false });
        const address = `${unique("logged.person")}@${c.school.domain}`;
        const headers = c.headers;
        await app.app.inject({
          method: "POST",
          url: "/api/users/school-email/send-code",
          headers,
          payload: { email: address },
        });
        await app.app.inject({
          method: "POST",
          url: "/api/trpc/schoolEmail.sendCode",
          headers,
          payload: { email: `Other.${address}` },
        });
        await app.app.inject({ method: "GET", url: `/api/dev/email-outbox?to=${encodeURIComponent(address)}` });
        await app.app.inject({
          method: "POST",
          url: "/api/users/school-email/verify",
          headers,
          payload: { email: address, code: "000000" },
        });
        await app.app.inject({
          method: "POST",
          url: "/api/trpc/schoolEmail.verify",
          headers,
          payload: { email: "not an address", code: "000000" },
        });
        const other = await insertTestSchool(app.deps.db);
        await app.app.inject({
          method: "POST",
          url: "/api/users/school-email/send-code",
          headers,
          payload: { email: `x@${other.domain}` },
        });
        // One request log line for each of the six requests, and whatever else was logged.
        expect(lines.length).toBeGreaterThanOrEqual(6);
        const text = lines.join("").toLowerCase();
        expect(text).not.toContain(address.toLowerCase());
        expect(text).not.toContain("logged.person");
        expect(text).not.toContain("gone@x.edu");
        lines.length = 0;
      }
    } finally {
      await logged.close();
      await broken.close();
    }
  });
});

describe("code limits", () => {
  it.each(VIAS)("one code per 30 s and a day's cap per student (%s)", async (via) => {
    const c = await newcomerCampus();
    expect((await sendCode(via, c.headers, `${unique("a")}@${c.domain}`)).status).toBe(200);
    const soon = await sendCode(via, c.headers, `${unique("b")}@${c.domain}`);
    expect(soon.status).toBe(429);
    for (let i = 1; i < SCHOOL_EMAIL_CODE.maxSendsPerStudentPerDay; i++) {
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, c.headers, `${unique("c")}@${c.domain}`)).status).toBe(200);
    }
    clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
    const capped = await sendCode(via, c.headers, `${unique("d")}@${c.domain}`);
    expect(capped.status).toBe(429);
    expect(capped.message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyForStudent);
  });

  it("an address gets a few codes an hour from each student; past a few students, none to one holding a live code", async () => {
    const c = await newcomerCampus();
    const address = `${unique("target")}@${c.domain}`;
    const { maxRequestersPerAddressPerHour: crowd, maxSendsPerAddressPerStudentPerHour: each } = SCHOOL_EMAIL_CODE;
    const students = await Promise.all(Array.from({ length: crowd + 2 }, () => c.student({ member: false })));
    const askers = await Promise.all(
      students.map(async (s) => ({ authorization: `Bearer ${(await sessionFor(t, s.phone)).token}` })),
    );
    for (const [i, headers] of askers.slice(0, crowd).entries()) {
      for (let k = 0; k < each; k++) {
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        const r = await sendCode(i % 2 ? "rest" : "trpc", headers, address);
        expect(r.status, r.raw).toBe(200);
      }
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode("trpc", headers, address)).message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyForAddressFromYou);
    }
    // One more student: a first code, and no second while it is live.
    const [late, later] = askers.slice(crowd);
    expect((await sendCode("rest", late!, address)).status).toBe(200);
    clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
    const refused = await sendCode("trpc", late!, address);
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyForAddress(10));
    // Yet another, with nothing outstanding, still gets one.
    expect((await sendCode("trpc", later!, address)).status).toBe(200);
    clock.advance(60 * 60 * 1000);
    const fresh = { authorization: `Bearer ${(await sessionFor(t, students[crowd]!.phone)).token}` };
    expect((await sendCode("trpc", fresh, address)).status).toBe(200);
  });

  it.each(VIAS)(
    "five guesses a code, codes expire after 10 minutes, and a day's wrong codes lock checks (%s)",
    async (via) => {
      const c = await newcomerCampus();
      const address = `${unique("guess")}@${c.domain}`;
      await sendCode(via, c.headers, address);
      const right = await codeIn(address);
      const wrong = right === "000000" ? "111111" : "000000";
      for (let i = 1; i < SCHOOL_EMAIL_CODE.maxAttempts; i++)
        expect((await verify(via, c.headers, address, wrong)).message).toBe(SCHOOL_EMAIL_MESSAGES.invalidCode);
      expect((await verify(via, c.headers, address, wrong)).message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyAttempts);
      // Even the right code: that one is spent.
      expect((await verify(via, c.headers, address, right)).message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyAttempts);

      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      await sendCode(via, c.headers, address);
      const late = await codeIn(address);
      clock.advance(SCHOOL_EMAIL_CODE.ttlMs);
      expect((await verify(via, c.headers, address, late)).message).toBe(SCHOOL_EMAIL_MESSAGES.expired);

      // 5 wrong so far; 10 more across two codes (to another address: a student gets a few codes an
      // hour for one address) lock the student for the rest of the day.
      const another = `${unique("guess")}@${c.domain}`;
      for (let k = 0; k < 2; k++) {
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        expect((await sendCode(via, c.headers, another)).status).toBe(200);
        for (let i = 0; i < SCHOOL_EMAIL_CODE.maxAttempts; i++) await verify(via, c.headers, another, wrong);
      }
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      const locked = await sendCode(via, c.headers, address);
      expect(locked.status).toBe(429);
      expect(locked.message).toMatch(/Too many wrong codes/);
    },
  );
});

describe("the development outbox", () => {
  it("needs an address and lists only that address's e-mails", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/dev/email-outbox" })).statusCode).toBe(400);
    const res = await t.app.inject({ method: "GET", url: "/api/dev/email-outbox?to=nobody%40nowhere.edu" });
    expect(res.json()).toEqual({ messages: [] });
  });

  it("is not served in production", async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: "production",
        ALLOW_DEV_PROVIDERS: "true",
        JWT_SECRET: "k".repeat(8) + "Zq3#vB9!xW2@mN7$pL4%tR6^yH8&uJ1*",
      },
    });
    try {
      expect((await prod.app.inject({ method: "GET", url: "/api/dev/email-outbox?to=a%40b.edu" })).statusCode).toBe(
        404,
      );
    } finally {
      await prod.close();
    }
  });
});
