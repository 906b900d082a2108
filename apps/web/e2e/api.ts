import {
  classYearsAt,
  SESSION_STORAGE_KEY,
  VOTES_PER_BATCH,
  type AuthTokens,
  type Gender,
  type MeUser,
  type RoundResponse,
  type Round,
  type School,
} from "@quad/contracts";
import type { Page } from "playwright-core";
import { portraitPng, type hueColors } from "./portrait";

/** This academic year's seniors and juniors: classes the wizard offers today (class years follow the date). */
export const [SENIORS, JUNIORS] = classYearsAt(new Date()) as [number, number];

/**
 * Arranging through the real HTTP API: signing students up the way the app
 * does and voting as them. Each e2e file makes its own client with its own
 * (documentation-range) address, so per-IP limits are not shared between files.
 */

export interface Student {
  phone: string;
  tokens: AuthTokens;
  me: MeUser;
}

export interface Profile {
  firstName: string;
  gender: Gender;
  preference?: Gender;
  instagramHandle?: string;
  graduationYear?: number;
  emojis?: string[];
  colors: ReturnType<typeof hueColors>;
}

export type Api = <T>(path: string, init?: RequestInit & { token?: string }) => Promise<T>;

export function createApi(baseURL: string, clientIp: string) {
  const api: Api = async <T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> => {
    const { token, headers, ...rest } = init;
    const response = await fetch(`${baseURL}/api${path}`, {
      ...rest,
      headers: {
        "x-forwarded-for": clientIp,
        ...(typeof rest.body === "string" ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? "GET"} /api${path} → ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  let school: School | undefined;
  const firstSchool = async () => (school ??= (await api<School[]>("/schools"))[0]!);
  let addresses = 0;

  /** The newest sign-in code texted to `phone`, from the dev outbox. */
  async function latestCode(phone: string): Promise<string> {
    const outbox = await api<{ messages: { body: string }[] }>(`/dev/sms-outbox?phone=${encodeURIComponent(phone)}`);
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.body ?? "")?.[1];
    if (!code) throw new Error(`No sign-in code for ${phone}`);
    return code;
  }

  /**
   * Signs a new student up: SMS code from the dev outbox, the profile with a
   * photo, then (unless `member: false`) a school address proved by its code.
   */
  async function createStudent(phone: string, profile: Profile, opts: { member?: boolean } = {}): Promise<Student> {
    const { codeRequestId } = await api<{ codeRequestId: string }>("/auth/send-code", {
      method: "POST",
      body: JSON.stringify({ phone }),
    });
    const tokens = await api<AuthTokens>("/auth/verify-code", {
      method: "POST",
      body: JSON.stringify({
        phone,
        code: await latestCode(phone),
        codeRequestId,
        consents: { sms: true, terms: true },
      }),
    });

    const form = new FormData();
    form.set("firstName", profile.firstName);
    form.set("university", String((await firstSchool()).id));
    form.set("graduationYear", String(profile.graduationYear ?? JUNIORS));
    form.set("gender", profile.gender);
    if (profile.preference) form.set("preference", profile.preference);
    form.set("instagramHandle", profile.instagramHandle ?? `@${profile.firstName.toLowerCase()}.e2e`);
    if (profile.emojis) form.set("emojis", JSON.stringify(profile.emojis));
    const photo = portraitPng(...profile.colors);
    form.set("profileImage", new Blob([new Uint8Array(photo)], { type: "image/png" }), "me.png");
    const { user } = await api<{ user: MeUser }>("/users/update", { method: "PATCH", body: form, token: tokens.token });
    if (!user.isVerified) throw new Error(`${profile.firstName} should be verified`);
    if (opts.member === false) return { phone, tokens, me: user };
    const member = await proveSchoolEmail(
      tokens,
      `${profile.firstName.toLowerCase()}.${phone.slice(-7)}.${++addresses}@${(await firstSchool()).emailDomains[0]}`,
    );
    return { phone, tokens, me: member };
  }

  /** The newest code e-mailed to `address`, from the dev e-mail outbox. */
  async function latestEmailCode(address: string): Promise<string> {
    const outbox = await api<{ messages: { body: string }[] }>(`/dev/email-outbox?to=${encodeURIComponent(address)}`);
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.body ?? "")?.[1];
    if (!code) throw new Error(`No code e-mailed to ${address}`);
    return code;
  }

  /** Proves a school address as the app does: a code to the address, read from the dev e-mail outbox. */
  async function proveSchoolEmail(tokens: AuthTokens, email: string): Promise<MeUser> {
    await api("/users/school-email/send-code", {
      method: "POST",
      body: JSON.stringify({ email }),
      token: tokens.token,
    });
    return api<MeUser>("/users/school-email/verify", {
      method: "POST",
      body: JSON.stringify({ email, code: await latestEmailCode(email) }),
      token: tokens.token,
    });
  }

  async function openRound(student: Student, skip = false): Promise<Round> {
    const response = await api<RoundResponse>(`/prompts/random?skip=${skip}`, { token: student.tokens.token });
    if ("error" in response) throw new Error(`No round: ${response.message}`);
    return response;
  }

  async function vote(student: Student, round: Round, userId = round.users[0].id): Promise<void> {
    await api("/votes/store", {
      method: "POST",
      token: student.tokens.token,
      body: JSON.stringify({ userId, promptId: round.prompt.id }),
    });
  }

  /**
   * The voter plays rounds until the recipient shows up and gets their vote,
   * skipping while skips are left and voting otherwise: one batch of votes
   * with three skips before each shows up to 96 students, and the engine
   * shows every student before repeating.
   */
  async function voteFor(voter: Student, recipient: Student): Promise<void> {
    let round = await openRound(voter);
    for (let votes = 0; votes < VOTES_PER_BATCH;) {
      const target = round.users.find((user) => user.id === recipient.me.id);
      if (target) return vote(voter, round, target.id);
      if (!round.prompt.skipDisabled) {
        round = await openRound(voter, true);
        continue;
      }
      await vote(voter, round);
      if (++votes < VOTES_PER_BATCH) round = await openRound(voter);
    }
    throw new Error("The recipient never appeared in the voter's rounds");
  }

  const me = (student: Student) => api<MeUser>("/users/me", { token: student.tokens.token });

  return { api, latestCode, latestEmailCode, createStudent, openRound, vote, voteFor, me };
}

/** Opens `path` signed in as `student`, with the session persisted as the app's store writes it. */
export async function openSignedIn(page: Page, baseURL: string, student: Student, path = "/home"): Promise<void> {
  if (!page.url().startsWith(baseURL)) await page.goto(`${baseURL}/terms`);
  const session = { state: { ...student.tokens, verified: student.me.isVerified }, version: 1 };
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    SESSION_STORAGE_KEY,
    JSON.stringify(session),
  ] as const);
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
}
