import { VALIDATION } from "@quad/contracts";
import { consents, users } from "@quad/db/schema";
import { insertTestSchool, insertTestUser } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFirebaseVerifier } from "../modules/auth/firebase";
import { createTestApp, type TestApp } from "../test/app";
import { latestCode, SIGNUP_CONSENTS, testPhone } from "../test/auth";
import { testClock } from "../test/sms";
import { campus } from "../test/voters";

/**
 * A student skips the sign-up form and signs a new phone up over the API
 * without ticking the SMS consent or "I am 18 or older and I agree to the
 * Terms". The account must not exist then: the check answers 400 with the
 * phone step's own messages and no session, over REST and tRPC, with our
 * codes and with Firebase. Returning students sign in without the consents.
 */

const VIAS = ["rest", "trpc"] as const;
type Via = (typeof VIAS)[number];
const MISSING = { "consents.sms": [VALIDATION.smsConsent], "consents.terms": [VALIDATION.acceptPrivacy] };

const clock = testClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());

async function call(app: TestApp, via: Via, rest: string, procedure: string, payload: object) {
  const res = await app.app.inject({
    method: "POST",
    url: via === "rest" ? `/api${rest}` : `/api/trpc/${procedure}`,
    payload,
  });
  const body = res.json();
  const error = via === "rest" ? body : body.error;
  return {
    status: res.statusCode,
    message: error?.message as string | undefined,
    fieldErrors: (via === "rest" ? error?.fieldErrors : error?.data?.fieldErrors) as
      Record<string, string[]> | undefined,
    tokens: (via === "rest" ? body : body.result?.data) as { token?: string },
    raw: res.body,
  };
}

async function codeFor(via: Via, phone: string) {
  const sent = await call(t, via, "/auth/send-code", "auth.sendCode", { phone });
  expect(sent.status, sent.raw).toBe(200);
  const { codeRequestId } = (via === "rest" ? JSON.parse(sent.raw) : JSON.parse(sent.raw).result.data) as {
    codeRequestId: string;
  };
  return { codeRequestId, code: await latestCode(t.app, phone) };
}
const check = (via: Via, phone: string, code: { code: string; codeRequestId: string }, extra: object = {}) =>
  call(t, via, "/auth/verify-code", "auth.verifyCode", { phone, ...code, ...extra });

const consentRows = (phone: string) =>
  t.deps.db.select({ kind: consents.kind }).from(consents).where(eq(consents.phone, phone));

describe.each(VIAS)("signing a new phone up without the consents (%s)", (via) => {
  it("is refused with the sign-up form's messages, no session and no account; the same code then signs up with them", async () => {
    const phone = testPhone();
    const code = await codeFor(via, phone);
    const refused = await check(via, phone, code);
    expect([refused.status, refused.message], refused.raw).toEqual([400, VALIDATION.smsConsent]);
    expect(refused.fieldErrors).toEqual(MISSING);
    expect(refused.tokens?.token).toBeUndefined();
    expect(await consentRows(phone)).toEqual([]);
    expect(await t.deps.db.select().from(users).where(eq(users.phone, phone))).toEqual([]);

    // Ticking both boxes, the same code signs up, and both consents are on record.
    const signedUp = await check(via, phone, code, { consents: SIGNUP_CONSENTS });
    expect(signedUp.status, signedUp.raw).toBe(200);
    expect((await consentRows(phone)).map((row) => row.kind).sort()).toEqual(["sms", "terms"]);
  });

  it("half the consents are refused too", async () => {
    const phone = testPhone();
    const code = await codeFor(via, phone);
    const refused = await check(via, phone, code, { consents: { sms: true } });
    expect(refused.status).toBe(400);
    expect(refused.fieldErrors?.["consents.terms"]).toEqual([VALIDATION.acceptPrivacy]);
    expect(await consentRows(phone)).toEqual([]);
  });

  it("a wrong code says only that it is wrong, whether or not the phone has an account", async () => {
    const phone = testPhone();
    const code = await codeFor(via, phone);
    const wrong = await check(via, phone, { ...code, code: code.code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.fieldErrors?.["consents.sms"]).toBeUndefined();
  });

  it("a returning student signs in without them, and so does a sign-up whose profile is not written yet", async () => {
    const c = await campus(t);
    const returning = await check(via, c.me.phone, await codeFor(via, c.me.phone));
    expect(returning.status, returning.raw).toBe(200);

    const phone = testPhone();
    expect((await check(via, phone, await codeFor(via, phone), { consents: SIGNUP_CONSENTS })).status).toBe(200);
    clock.advance(60_000);
    const again = await check(via, phone, await codeFor(via, phone));
    expect(again.status, again.raw).toBe(200);
  });
});

describe("with Firebase sign-in", () => {
  const projectId = "quad-test";
  let fb: TestApp;
  let sign: (phone: string) => Promise<string>;
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    const keySet = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256" }] });
    sign = (phone) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ phone_number: phone, auth_time: now - 5 })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(`https://securetoken.google.com/${projectId}`)
        .setAudience(projectId)
        .setSubject("uid-1")
        .setIssuedAt(now - 5)
        .setExpirationTime(now + 3600)
        .sign(privateKey);
    };
    fb = await createTestApp({
      env: { AUTH_PROVIDER: "firebase", FIREBASE_PROJECT_ID: projectId, FIREBASE_API_KEY: "public-api-key" },
      firebaseVerifier: createFirebaseVerifier({ projectId, now: () => new Date(), keySet }),
    });
  });
  afterAll(() => fb?.close());

  it.each(VIAS)("a new phone needs both consents, a returning one does not (%s)", async (via) => {
    const phone = testPhone();
    const firebase = async (extra: object = {}) =>
      call(fb, via, "/auth/firebase", "auth.firebase", { idToken: await sign(phone), ...extra });
    const refused = await firebase();
    expect([refused.status, refused.fieldErrors], refused.raw).toEqual([400, MISSING]);
    expect(refused.tokens?.token).toBeUndefined();
    expect((await firebase({ consents: SIGNUP_CONSENTS })).status).toBe(200);

    const school = await insertTestSchool(fb.deps.db);
    const student = await insertTestUser(fb.deps.db, { schoolId: school.id });
    const returning = await call(fb, via, "/auth/firebase", "auth.firebase", { idToken: await sign(student.phone) });
    expect(returning.status, returning.raw).toBe(200);
  });
});
