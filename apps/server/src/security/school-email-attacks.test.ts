import { SCHOOL_EMAIL_CODE, SCHOOL_EMAIL_MESSAGES } from "@quad/contracts";
import { emailOutbox, schoolEmailCodes, schoolEmailDomains, users } from "@quad/db/schema";
import { insertTestSchool } from "@quad/db/testing";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../env";
import { createTestApp, PRODUCTION_PROVIDERS, type TestApp } from "../test/app";
import { VIAS, schoolEmailRequests, type Via } from "../test/school-email";
import { showTo } from "../test/shown";
import { signIn, testPhone } from "../test/auth";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";

/**
 * A hostile student against school e-mail membership: proving an address
 * whose inbox they do not read, proving one mailbox for many accounts, and
 * seeing a school's students without a proof. Over REST and tRPC.
 */

const clock = testClock("2026-03-02T15:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const { sendCode, verify, codeIn } = schoolEmailRequests(() => t.app);
async function exportOf(via: Via, headers: Headers): Promise<string> {
  const res = await t.app.inject({
    method: "GET",
    url: via === "rest" ? "/api/users/export" : "/api/trpc/account.export",
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

let n = 0;
const unique = (name: string) => `${name}${++n}`;

describe("proving an address whose inbox the attacker does not read", () => {
  it.each(VIAS)("the export does not carry the code e-mailed to someone else's address (%s)", async (via) => {
    const c = await campus(t, { member: false });
    const victim = `${unique("victim")}@${c.school.domain}`;
    expect((await sendCode(via, c.headers, victim)).status).toBe(200);
    const code = await codeIn(victim);
    // The attacker reads only their own export...
    const exported = await exportOf(via, c.headers);
    expect(exported).not.toContain(code);
    // ...so the code they would take from it does not prove the address.
    const fromExport = exported.match(/\b(\d{6})\b/)?.[1] ?? "000000";
    const res = await verify(via, c.headers, victim, fromExport === code ? "000000" : fromExport);
    expect(res.status).not.toBe(200);
    const [row] = await t.deps.db.select({ schoolEmail: users.schoolEmail }).from(users).where(eq(users.id, c.me.id));
    expect(row?.schoolEmail).toBeNull();
  });
});

describe("guessing past the limits by starting over", () => {
  it.each(VIAS)(
    "deleting the account and signing up again does not give a phone a fresh day of sends and guesses (%s)",
    async (via) => {
      const school = await insertTestSchool(t.deps.db);
      const phone = testPhone();
      const victim = `${unique("victim")}@${school.domain}`;
      let guesses = 0;
      let sent = 0;
      for (let cycle = 0; cycle < 4; cycle++) {
        const headers = { authorization: `Bearer ${(await signIn(t.app, phone)).token}` };
        expect(
          (
            await t.app.inject({
              method: "PATCH",
              url: "/api/users/update",
              headers,
              payload: { university: school.id },
            })
          ).statusCode,
        ).toBe(200);
        for (let k = 0; k < 3; k++) {
          if ((await sendCode(via, headers, victim)).status === 200) sent++;
          for (let i = 0; i < SCHOOL_EMAIL_CODE.maxAttempts; i++) {
            const res = await verify(via, headers, victim, String(100000 + guesses));
            if (
              res.message === SCHOOL_EMAIL_MESSAGES.invalidCode ||
              res.message === SCHOOL_EMAIL_MESSAGES.tooManyAttempts
            )
              guesses++;
          }
          clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        }
        expect(
          (
            await t.app.inject({
              method: "POST",
              url: "/api/users/delete-account",
              headers,
              payload: { confirm: "DELETE" },
            })
          ).statusCode,
        ).toBe(200);
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      }
      // Within one day, one phone: a day's requests, not one day's per account it makes.
      expect(guesses).toBeLessThanOrEqual(SCHOOL_EMAIL_CODE.maxCheckRequestsPerPhonePerDay);
      expect(sent).toBeLessThanOrEqual(SCHOOL_EMAIL_CODE.maxSendRequestsPerPhonePerDay);
      // The next day, the phone may try again.
      clock.advance(SCHOOL_EMAIL_CODE.windowMs);
      const headers = { authorization: `Bearer ${(await signIn(t.app, phone)).token}` };
      expect(
        (await t.app.inject({ method: "PATCH", url: "/api/users/update", headers, payload: { university: school.id } }))
          .statusCode,
      ).toBe(200);
      const other = `${unique("fresh")}@${school.domain}`;
      expect((await sendCode(via, headers, other)).status).toBe(200);
      expect((await verify(via, headers, other, await codeIn(other))).status).toBe(200);
    },
  );
});

describe("one mailbox, many accounts", () => {
  it.each(VIAS)(
    "sub-addresses (+tag) and percent-routed addresses, which reach another mailbox, are refused (%s)",
    async (via) => {
      const c = await campus(t, { member: false });
      for (const address of [
        `${unique("me")}+quad2@${c.school.domain}`,
        `${unique("me")}+@${c.school.domain}`,
        `${unique("me")}%evil.com@${c.school.domain}`,
      ]) {
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        const res = await sendCode(via, c.headers, address);
        expect(res.status, address).toBe(400);
        // A "+" address is a real one: the message says why it is refused.
        expect(res.message, address).toBe(
          address.includes("+") ? SCHOOL_EMAIL_MESSAGES.plusAddress : SCHOOL_EMAIL_MESSAGES.invalid,
        );
      }
      // A plain address still works (O'Brien's too).
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      const plain = `${unique("o'brien")}@${c.school.domain}`;
      expect((await sendCode(via, c.headers, plain)).status).toBe(200);
      expect((await verify(via, c.headers, plain, await codeIn(plain))).status).toBe(200);
    },
  );
});

/** A campus whose school has a second (alias) domain, like uw.edu and washington.edu. */
async function aliasedCampus() {
  const c = await campus(t, { member: false });
  const main = c.school.domain.toLowerCase();
  const alias = main.replace(/\.edu$/, "-alias.edu");
  await t.deps.db.insert(schoolEmailDomains).values({ domain: alias, schoolId: c.school.id });
  const newcomer = async () => {
    const s = await c.student({ member: false });
    return { id: s.id, headers: { authorization: `Bearer ${(await sessionFor(t, s.phone)).token}` } };
  };
  return { ...c, main, alias, newcomer };
}

describe("one mailbox, one account, whichever of the school's domains it is typed with", () => {
  it.each(VIAS)(
    "jo@ the main domain, the alias, and subdomains of either prove at most one account (%s)",
    async (via) => {
      const c = await aliasedCampus();
      const jo = unique("jo");
      const addresses = [`${jo}@${c.main}`, `${jo}@${c.alias}`, `${jo}@cs.${c.main}`, `${jo}@x.${c.alias}`];
      const proved: string[] = [];
      for (const address of addresses) {
        const s = await c.newcomer();
        if ((await sendCode(via, s.headers, address)).status !== 200) continue;
        if ((await verify(via, s.headers, address, await codeIn(address))).status === 200) proved.push(address);
      }
      expect(proved).toEqual([`${jo}@${c.main}`]);
      const owners = await t.deps.db
        .select({ email: users.schoolEmail, mailbox: users.schoolEmailCanonical })
        .from(users)
        .where(eq(users.schoolEmailCanonical, `${jo}@${c.main}`));
      expect(owners).toEqual([{ email: `${jo}@${c.main}`, mailbox: `${jo}@${c.main}` }]);
    },
  );

  it.each(VIAS)("the alias proves, and then the main domain is taken (%s)", async (via) => {
    const c = await aliasedCampus();
    const jo = unique("jo");
    const first = await c.newcomer();
    expect((await sendCode(via, first.headers, `${jo}@${c.alias}`)).status).toBe(200);
    expect((await verify(via, first.headers, `${jo}@${c.alias}`, await codeIn(`${jo}@${c.alias}`))).status).toBe(200);
    const second = await c.newcomer();
    // Sending still says nothing; only the inbox's reader learns the mailbox is taken.
    expect((await sendCode(via, second.headers, `${jo}@${c.main}`)).status).toBe(200);
    const res = await verify(via, second.headers, `${jo}@${c.main}`, await codeIn(`${jo}@${c.main}`));
    expect(res.status).toBe(409);
    expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.taken);
  });

  it.each(VIAS)("a subdomain is refused unless the school lists it (%s)", async (via) => {
    const c = await aliasedCampus();
    const s = await c.newcomer();
    const address = `${unique("grace")}@cs.${c.main}`;
    for (const refused of [address, `${unique("a")}@x.y.${c.main}`, `${unique("a")}@mail.${c.alias}`]) {
      const res = await sendCode(via, s.headers, refused);
      expect(res.status, refused).toBe(400);
      expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.notSchool(c.school.name, c.main));
    }
    await t.deps.db.insert(schoolEmailDomains).values({ domain: `cs.${c.main}`, schoolId: c.school.id });
    expect((await sendCode(via, s.headers, address)).status).toBe(200);
    const res = await verify(via, s.headers, address, await codeIn(address));
    expect(res.status).toBe(200);
    const [row] = await t.deps.db
      .select({ mailbox: users.schoolEmailCanonical, domain: users.schoolEmailDomain })
      .from(users)
      .where(eq(users.id, s.id));
    expect(row).toEqual({ mailbox: address.replace(`@cs.${c.main}`, `@${c.main}`), domain: `cs.${c.main}` });
  });

  it.each(VIAS)("alumni addresses are refused, even at a domain the school lists (%s)", async (via) => {
    const c = await aliasedCampus();
    const s = await c.newcomer();
    await t.deps.db.insert(schoolEmailDomains).values({ domain: `alumni.${c.main}`, schoolId: c.school.id });
    for (const address of [
      `${unique("old")}@alumni.${c.main}`,
      `${unique("old")}@alum.${c.alias}`,
      `${unique("old")}@mail.alumni.${c.main}`,
    ]) {
      const res = await sendCode(via, s.headers, address);
      expect(res.status, address).toBe(400);
      expect(res.message).toBe(SCHOOL_EMAIL_MESSAGES.alumni(c.main));
      expect(res.fieldErrors?.email).toEqual([res.message]);
    }
    expect(await t.deps.db.select().from(schoolEmailCodes).where(eq(schoolEmailCodes.userId, s.id))).toEqual([]);
  });

  it.each(VIAS)("two accounts proving one mailbox at once, through two domains: one wins (%s)", async (via) => {
    for (let i = 0; i < 3; i++) {
      const c = await aliasedCampus();
      const jo = unique("jo");
      const [a, b] = [await c.newcomer(), await c.newcomer()];
      expect((await sendCode(via, a.headers, `${jo}@${c.main}`)).status).toBe(200);
      expect((await sendCode(via, b.headers, `${jo}@${c.alias}`)).status).toBe(200);
      const [codeA, codeB] = [await codeIn(`${jo}@${c.main}`), await codeIn(`${jo}@${c.alias}`)];
      const results = await Promise.all([
        verify(via, a.headers, `${jo}@${c.main}`, codeA),
        verify(via, b.headers, `${jo}@${c.alias}`, codeB),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)?.message).toBe(SCHOOL_EMAIL_MESSAGES.taken);
      const owners = await t.deps.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.schoolEmailCanonical, `${jo}@${c.main}`));
      expect(owners).toHaveLength(1);
    }
  });
});

describe("spending someone else's codes", () => {
  it.each(VIAS)(
    "seven classmates ask three times each for an address (and its alias); its owner still gets a code and proves, and her inbox gets a few (%s)",
    async (via) => {
      const c = await aliasedCampus();
      const local = unique("ada");
      const address = `${local}@${c.main}`;
      const { maxRequestersPerAddressPerHour: crowd, maxSendsPerAddressPerStudentPerHour: each } = SCHOOL_EMAIL_CODE;
      const answered: number[][] = [];
      const refusals: (string | undefined)[] = [];
      for (let k = 0; k < 7; k++) {
        const rival = await c.newcomer();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) {
          clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
          // Alternating the school's two domains reaches the same inbox, and the same counts.
          const res = await sendCode(via, rival.headers, `${local}@${i % 2 ? c.alias : c.main}`);
          statuses.push(res.status);
          if (res.status !== 200) refusals.push(res.message);
        }
        answered.push(statuses);
      }
      // The owner, within the same two minutes.
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      const res = await sendCode(via, c.headers, address);
      expect(res.status, res.raw).toBe(200);
      expect((await verify(via, c.headers, address, await codeIn(address))).status).toBe(200);

      // The first few classmates each spend their own share; the rest get one code each, no resends.
      expect(answered).toEqual([
        ...Array.from({ length: crowd }, () => Array(each).fill(200)),
        ...Array.from({ length: 7 - crowd }, () => [200, 429, 429]),
      ]);
      // Holding a live code, a classmate is told to wait until it expires, not an hour.
      for (const message of refusals) expect([9, 10].map(SCHOOL_EMAIL_MESSAGES.tooManyForAddress)).toContain(message);

      const inbox = await t.deps.db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(inArray(emailOutbox.toAddress, [address, `${local}@${c.alias}`]));
      expect(inbox).toHaveLength(crowd * each + (7 - crowd) + 1);
    },
  );

  it.each(VIAS)(
    "past the crowd, a classmate gets another code only once the last one has expired or been used up (%s)",
    async (via) => {
      const c = await aliasedCampus();
      const address = `${unique("bea")}@${c.main}`;
      const rivals = [];
      for (let k = 0; k <= SCHOOL_EMAIL_CODE.maxRequestersPerAddressPerHour; k++) {
        const rival = await c.newcomer();
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        expect((await sendCode(via, rival.headers, address)).status).toBe(200);
        rivals.push(rival);
      }
      const last = rivals.at(-1)!;
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, last.headers, address)).status).toBe(429);
      // Five wrong guesses use the code up: the next one goes out.
      const right = await codeIn(address);
      for (let i = 0; i < SCHOOL_EMAIL_CODE.maxAttempts; i++)
        await verify(via, last.headers, address, right === "000000" ? "111111" : "000000");
      expect((await sendCode(via, last.headers, address)).status).toBe(200);
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, last.headers, address)).status).toBe(429);
      // Left to expire: the next one goes out, and then its own hourly share is spent.
      clock.advance(SCHOOL_EMAIL_CODE.ttlMs);
      expect((await sendCode(via, last.headers, address)).status).toBe(200);
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, last.headers, address)).message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyForAddressFromYou);
    },
  );
});

describe("addresses no mail server delivers", () => {
  it.each(VIAS)(
    "dots at the ends or doubled, and labels starting or ending with a hyphen, are refused (%s)",
    async (via) => {
      const c = await campus(t, { member: false });
      const d = c.school.domain.toLowerCase();
      for (const address of [`.al@${d}`, `al.@${d}`, `a..l@${d}`, `al@-.${d}`, `al@x-.${d}`]) {
        clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
        const res = await sendCode(via, c.headers, address);
        expect(res.status, address).toBe(400);
        expect(res.message, address).toBe(SCHOOL_EMAIL_MESSAGES.invalid);
        expect(res.fieldErrors?.email, address).toEqual([SCHOOL_EMAIL_MESSAGES.invalid]);
      }
      expect(await t.deps.db.select().from(schoolEmailCodes).where(eq(schoolEmailCodes.userId, c.me.id))).toEqual([]);
    },
  );
});

describe("seeing a school's students without a proof", () => {
  it.each(VIAS)(
    "the block list shows a blocked student's current photo only to a proved member of their school (%s)",
    async (via) => {
      const c = await campus(t, { gender: "male", preference: "female" });
      const target = await c.student({ gender: "female", photoKey: "photos/target-before.jpg" });
      const beside = await c.student({ gender: "female" });
      await showTo(t, c.me.id, target.id, beside.id);
      expect(
        (
          await t.app.inject({
            method: "POST",
            url: "/api/safety/block",
            headers: c.headers,
            payload: { userId: target.id },
          })
        ).statusCode,
      ).toBe(200);
      // The blocker leaves and comes back: the move cleared their proof, and they do not prove it again.
      const elsewhere = await insertTestSchool(t.deps.db);
      for (const university of [elsewhere.id, c.school.id]) {
        const res = await t.app.inject({
          method: "PATCH",
          url: "/api/users/update",
          headers: c.headers,
          payload: { university },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().user.schoolEmailVerified).toBe(false);
      }
      await t.deps.db.update(users).set({ photoKey: "photos/target-after.jpg" }).where(eq(users.id, target.id));
      const res = await t.app.inject({
        method: "GET",
        url: via === "rest" ? "/api/safety/blocks" : "/api/trpc/safety.blocks",
        headers: c.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(target.id);
      expect(res.body).not.toContain("target-after");

      // Proved again: the photo is theirs to see.
      const member = `${unique("back")}@${c.school.domain}`;
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, c.headers, member)).status).toBe(200);
      expect((await verify(via, c.headers, member, await codeIn(member))).status).toBe(200);
      const again = await t.app.inject({
        method: "GET",
        url: via === "rest" ? "/api/safety/blocks" : "/api/trpc/safety.blocks",
        headers: c.headers,
      });
      expect(again.body).toContain("target-after");
    },
  );
});

describe("the address goes with the account", () => {
  it.each(VIAS)("codes and e-mails other students had sent to it go too (%s)", async (via) => {
    const c = await campus(t, { member: false });
    const address = `${unique("leaving")}@${c.school.domain}`;
    expect((await sendCode(via, c.headers, address)).status).toBe(200);
    expect((await verify(via, c.headers, address, await codeIn(address))).status).toBe(200);
    // A classmate tries the address (and would learn it is taken only by reading that inbox).
    const rival = await c.student({ member: false });
    const rivalHeaders = { authorization: `Bearer ${(await sessionFor(t, rival.phone)).token}` };
    expect((await sendCode(via, rivalHeaders, address)).status).toBe(200);

    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/users/delete-account",
          headers: c.headers,
          payload: { confirm: "DELETE" },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      await t.deps.db
        .select({ id: schoolEmailCodes.id })
        .from(schoolEmailCodes)
        .where(eq(schoolEmailCodes.address, address)),
    ).toEqual([]);
    expect(
      await t.deps.db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.toAddress, address)),
    ).toEqual([]);
    expect(await exportOf(via, rivalHeaders)).not.toContain(address);
  });
});

describe("what held", () => {
  it.each(VIAS)(
    "a code sent to one address does not verify another, nor another student's, nor twice (%s)",
    async (via) => {
      const c = await campus(t, { member: false });
      const other = await c.student({ member: false });
      const otherHeaders = { authorization: `Bearer ${(await sessionFor(t, other.phone)).token}` };
      const mine = `${unique("mine")}@${c.school.domain}`;
      const theirs = `${unique("theirs")}@${c.school.domain}`;
      expect((await sendCode(via, c.headers, mine)).status).toBe(200);
      const code = await codeIn(mine);
      // Another address of the same school, with no code of its own, and with one.
      expect((await verify(via, c.headers, theirs, code)).message).toBe(SCHOOL_EMAIL_MESSAGES.noCode);
      expect((await sendCode(via, otherHeaders, theirs)).status).toBe(200);
      expect((await verify(via, otherHeaders, theirs, code)).status).toBe(400);
      // Another student with a code of their own for the same address.
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      expect((await sendCode(via, otherHeaders, mine)).status).toBe(200);
      expect((await verify(via, otherHeaders, mine, code)).status).toBe(400);
      // Used once, spent.
      expect((await verify(via, c.headers, mine, code)).status).toBe(200);
      expect((await verify(via, c.headers, mine, code)).message).toBe(SCHOOL_EMAIL_MESSAGES.noCode);
    },
  );

  it.each(VIAS)("addresses that only look like the school's are refused (%s)", async (via) => {
    const c = await campus(t, { member: false });
    const d = c.school.domain;
    for (const address of [
      `a@evil.${d}.attacker.com`,
      `a@${d}@evil.com`,
      `"a@${d}"@evil.com`,
      `a@${d}.`,
      `a@${d.replace("e", "\u0435")}`,
      `a@xn--${d}`,
      `a@${d}\nBcc: x@evil.com`,
      `a@${d}\r\nBcc: x@evil.com`,
      `a\r\nBcc: x@evil.com\r\n@${d}`,
      `a@${d},b@evil.com`,
      `a@${d} <b@evil.com>`,
      `<a@${d}>`,
      `a@[127.0.0.1]`,
    ]) {
      const res = await sendCode(via, c.headers, address);
      expect(res.status, JSON.stringify(address)).toBe(400);
    }
    const [row] = await t.deps.db.select({ schoolEmail: users.schoolEmail }).from(users).where(eq(users.id, c.me.id));
    expect(row?.schoolEmail).toBeNull();
  });

  it.each(VIAS)("changing school after proving clears the proof, whatever the body's shape (%s)", async (via) => {
    const c = await campus(t, {});
    const elsewhere = await insertTestSchool(t.deps.db);
    const res =
      via === "rest"
        ? await t.app.inject({
            method: "PATCH",
            url: "/api/users/update",
            headers: { ...c.headers, "content-type": "multipart/form-data; boundary=X" },
            payload: `--X\r\nContent-Disposition: form-data; name="university"\r\n\r\n${elsewhere.id}\r\n--X--\r\n`,
          })
        : await t.app.inject({
            method: "POST",
            url: "/api/trpc/users.update",
            headers: c.headers,
            payload: { university: elsewhere.id },
          });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.deps.db
      .select({ schoolId: users.schoolId, at: users.schoolVerifiedAt, domain: users.schoolEmailDomain })
      .from(users)
      .where(eq(users.id, c.me.id));
    expect(row).toEqual({ schoolId: elsewhere.id, at: null, domain: null });
    const round = await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=false", headers: c.headers });
    expect(round.statusCode).toBe(403);
  });

  it.each(VIAS)(
    "sends at the same moment give one code, and guesses at the same moment spend the code's attempts one by one (%s)",
    async (via) => {
      const c = await campus(t, { member: false });
      const address = `${unique("burst")}@${c.school.domain}`;
      const sends = await Promise.all(Array.from({ length: 6 }, () => sendCode(via, c.headers, address)));
      expect(sends.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429, 429]);
      const right = await codeIn(address);
      const wrong = right === "000000" ? "111111" : "000000";
      const guesses = await Promise.all(Array.from({ length: 12 }, () => verify(via, c.headers, address, wrong)));
      expect(guesses.every((r) => r.status === 400)).toBe(true);
      const [row] = await t.deps.db
        .select({ attempts: schoolEmailCodes.attempts })
        .from(schoolEmailCodes)
        .where(eq(schoolEmailCodes.address, address));
      expect(row?.attempts).toBe(SCHOOL_EMAIL_CODE.maxAttempts);
      expect((await verify(via, c.headers, address, right)).message).toBe(SCHOOL_EMAIL_MESSAGES.tooManyAttempts);
    },
  );

  it.each(VIAS)(
    "a move to another school racing the proof never leaves a proof at the new school (%s)",
    async (via) => {
      for (let i = 0; i < 4; i++) {
        const c = await campus(t, { member: false });
        const elsewhere = await insertTestSchool(t.deps.db);
        const address = `${unique("racer")}@${c.school.domain}`;
        expect((await sendCode(via, c.headers, address)).status).toBe(200);
        const code = await codeIn(address);
        const move =
          via === "rest"
            ? t.app.inject({
                method: "PATCH",
                url: "/api/users/update",
                headers: c.headers,
                payload: { university: elsewhere.id },
              })
            : t.app.inject({
                method: "POST",
                url: "/api/trpc/users.update",
                headers: c.headers,
                payload: { university: elsewhere.id },
              });
        await Promise.all([verify(via, c.headers, address, code), move]);
        const [row] = await t.deps.db
          .select({ schoolId: users.schoolId, at: users.schoolVerifiedAt, email: users.schoolEmail })
          .from(users)
          .where(eq(users.id, c.me.id));
        expect(row?.schoolId).toBe(elsewhere.id);
        expect(row).toMatchObject({ at: null, email: null });
      }
    },
  );

  it("production refuses the e-mail outbox without ALLOW_DEV_PROVIDERS, and never serves it over either protocol", async () => {
    const secret = "k".repeat(8) + "Zq3#vB9!xW2@mN7$pL4%tR6^yH8&uJ1*";
    // Real providers but the e-mail one: it is left to its default, the outbox.
    const { EMAIL_PROVIDER: _email, SMTP_URL: _smtp, ...providers } = PRODUCTION_PROVIDERS;
    const prod = { NODE_ENV: "production", PUBLIC_URL: "https://quad.example.edu", JWT_SECRET: secret, ...providers };
    expect(() => parseConfig(prod)).toThrow(/EMAIL_PROVIDER must not be outbox in production/);
    expect(() =>
      parseConfig({ ...prod, EMAIL_PROVIDER: "smtp", SMTP_URL: "smtps://u:p@mail.example.com" }),
    ).not.toThrow();
    const app = await createTestApp({
      env: { NODE_ENV: "production", ALLOW_DEV_PROVIDERS: "true", JWT_SECRET: secret },
    });
    try {
      const input = encodeURIComponent(JSON.stringify({ to: "a@b.edu" }));
      expect(
        (await app.app.inject({ method: "GET", url: `/api/trpc/dev.emailOutbox?input=${input}` })).statusCode,
      ).toBe(404);
      expect((await app.app.inject({ method: "GET", url: "/api/dev/email-outbox?to=a%40b.edu" })).statusCode).toBe(404);
      const doc = await app.app.inject({ method: "GET", url: "/api/openapi.json" });
      expect(doc.statusCode).toBe(200);
      expect(doc.body).not.toContain("email-outbox");
    } finally {
      await app.close();
    }
  });

  it.each(VIAS)("a provider's refusal quoting the address reaches the student as a plain 503 (%s)", async (via) => {
    const failing = await createTestApp({
      now: clock.now,
      email: {
        async send(message) {
          throw new Error(
            `550 5.1.1 <${message.to}>: Recipient address rejected: User unknown in virtual mailbox table`,
          );
        },
      },
    });
    try {
      const c = await campus(failing, { member: false });
      const address = `${unique("bounce")}@${c.school.domain}`;
      const res = await failing.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/users/school-email/send-code" : "/api/trpc/schoolEmail.sendCode",
        headers: c.headers,
        payload: { email: address },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBeDefined();
      expect(res.body).toContain(SCHOOL_EMAIL_MESSAGES.sendFailed);
      expect(res.body).not.toContain(address);
      expect(res.body).not.toContain("550");
    } finally {
      await failing.close();
    }
  });
});
