import { deflateSync } from "node:zlib";
import {
  LOCKED_NAME_PLACEHOLDER,
  SCREEN_TEXT,
  SESSION_STORAGE_KEY,
  TOASTS,
  type AuthTokens,
  type MeUser,
  type PromptResponse,
  type School,
} from "@quad/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openDesktopPage, openMobilePage, saveScreenshot, type OpenedPage } from "./browser";

const baseURL = inject("baseURL");

/**
 * Received votes, unlocks, payments and boosts in real Chromium against the
 * real server (local payment provider, test cards). Every vote is cast
 * through the API by a real student; nothing is faked.
 */

// ---------------------------------------------------------------- arranging through the HTTP API

/**
 * Each file's students send codes from their own (documentation-range) client
 * address, so the per-IP send-code limit is not shared with other e2e files.
 */
const CLIENT_IP = "203.0.113.55";

async function api<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const { token, headers, ...rest } = init;
  const response = await fetch(`${baseURL}/api${path}`, {
    ...rest,
    headers: {
      "x-forwarded-for": CLIENT_IP,
      ...(rest.body && !(rest.body instanceof FormData) ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} /api${path} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 300×400 portrait PNG: a head-and-shoulders silhouette on a two-colour gradient. */
function portraitPng(top: [number, number, number], bottom: [number, number, number]): Buffer {
  const width = 300;
  const height = 400;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const t = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const head = (x - 150) ** 2 + (y - 165) ** 2 < 62 ** 2;
      const shoulders = ((x - 150) / 120) ** 2 + ((y - 400) / 150) ** 2 < 1;
      const light = head || shoulders ? 0.55 : 0;
      for (let channel = 0; channel < 3; channel++) {
        const base = top[channel]! + (bottom[channel]! - top[channel]!) * t;
        row[1 + x * 3 + channel] = Math.round(base + (255 - base) * light);
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

interface Student {
  phone: string;
  tokens: AuthTokens;
  me: MeUser;
}

interface Profile {
  firstName: string;
  gender: "male" | "female";
  preference: "male" | "female";
  instagramHandle: string;
  graduationYear: number;
  emojis?: string[];
  colors: [[number, number, number], [number, number, number]];
}

let schoolId: number | undefined;

async function firstSchool(): Promise<number> {
  schoolId ??= (await api<School[]>("/schools"))[0]!.id;
  return schoolId;
}

/** Signs a new student up the way the app does: SMS code from the dev outbox, then the profile with a photo. */
async function createStudent(phone: string, profile: Profile): Promise<Student> {
  await api("/auth/send-code", { method: "POST", body: JSON.stringify({ phone }) });
  const outbox = await api<{ messages: { body: string }[] }>(`/dev/sms-outbox?phone=${encodeURIComponent(phone)}`);
  const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.body ?? "")?.[1];
  if (!code) throw new Error(`No sign-in code for ${phone}`);
  const tokens = await api<AuthTokens>("/auth/verify-code", {
    method: "POST",
    body: JSON.stringify({ phone, code, consents: { sms: true, terms: true } }),
  });

  const form = new FormData();
  form.set("firstName", profile.firstName);
  form.set("university", String(await firstSchool()));
  form.set("graduationYear", String(profile.graduationYear));
  form.set("gender", profile.gender);
  form.set("preference", profile.preference);
  form.set("instagramHandle", profile.instagramHandle);
  if (profile.emojis) form.set("emojis", JSON.stringify(profile.emojis));
  const photo = portraitPng(...profile.colors);
  form.set("profileImage", new Blob([new Uint8Array(photo)], { type: "image/png" }), "me.png");
  const { user } = await api<{ user: MeUser }>("/users/update", { method: "PATCH", body: form, token: tokens.token });
  expect(user.isVerified, `${profile.firstName} should be verified`).toBe(true);
  return { phone, tokens, me: user };
}

/**
 * The voter plays rounds until the recipient shows up and gets their vote;
 * the engine shows every student before repeating, so 12 votes are enough.
 */
async function voteFor(voter: Student, recipient: Student): Promise<void> {
  for (let round = 0; round < 12; round++) {
    const response = await api<PromptResponse>("/prompts/random?skip=false", { token: voter.tokens.token });
    if ("error" in response) throw new Error(`No round for the voter: ${response.message}`);
    const target = response.users.find((user) => user.id === recipient.me.id);
    await api("/votes/store", {
      method: "POST",
      token: voter.tokens.token,
      body: JSON.stringify({ userId: (target ?? response.users[0]).id, promptId: response.prompt.id }),
    });
    if (target) return;
  }
  throw new Error("The recipient never appeared in the voter's rounds");
}

async function me(student: Student): Promise<MeUser> {
  return api<MeUser>("/users/me", { token: student.tokens.token });
}

// ---------------------------------------------------------------- the browser side

/** Opens /home signed in as `student`, with the session persisted as the app's store writes it. */
async function openHomeAs(browser: Browser, student: Student, kind: "mobile" | "desktop" = "mobile"): Promise<OpenedPage> {
  const opened = await (kind === "mobile" ? openMobilePage : openDesktopPage)(browser, `${baseURL}/terms`);
  const session = { state: { user: student.me, ...student.tokens }, version: 0 };
  await opened.page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [SESSION_STORAGE_KEY, JSON.stringify(session)] as const);
  await opened.page.goto(`${baseURL}/home`, { waitUntil: "networkidle" });
  await opened.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).waitFor();
  return opened;
}

function dialog(page: Page, name: string): Locator {
  return page.getByRole("dialog", { name, exact: true });
}

/** Lets entrance animations finish so screenshots show the settled UI. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(350);
}

async function payWithCard(page: Page, cardNumber: string, payLabel: string): Promise<Locator> {
  const checkout = dialog(page, "Checkout");
  await checkout.getByLabel("Card number").fill(cardNumber);
  await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
  await checkout.getByLabel("Security code (CVC)").fill("123");
  await checkout.getByRole("button", { name: payLabel }).click();
  return checkout;
}

describe("received votes, unlocks, payments and boosts", () => {
  let browser: Browser;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
    await browser?.close();
  });

  it("a student who received a vote buys unlock-3 with 4242…, unlocks the voter and sees their name and handle", async () => {
    const recipient = await createStudent("+15555550811", {
      firstName: "Robin",
      gender: "female",
      preference: "male",
      instagramHandle: "@robin.e2e",
      graduationYear: 2027,
      colors: [[124, 58, 237], [219, 39, 119]],
    });
    const voter = await createStudent("+15555550812", {
      firstName: "Quinlan",
      gender: "male",
      preference: "female",
      instagramHandle: "@quinlan.builds",
      graduationYear: 2026,
      emojis: ["🎸", "🌮"],
      colors: [[14, 116, 144], [249, 115, 22]],
    });
    await voteFor(voter, recipient);

    const home = await openHomeAs(browser, recipient);
    opened.push(home);
    const { page, errors } = home;

    // The list: one locked card, without the voter's name or handle.
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    const list = dialog(page, SCREEN_TEXT.votedOnYou);
    const card = list.getByRole("listitem").first();
    await card.getByText(LOCKED_NAME_PLACEHOLDER).waitFor();
    await expect.poll(() => card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // (The voter may be a candidate in the round behind the modal: look only inside it.)
    expect(await list.getByText("Quinlan").count()).toBe(0);
    expect(await list.getByText("@quinlan.builds").count()).toBe(0);
    await settle(page);
    await saveScreenshot(page, "inbox-votes-mobile");

    // The detail: prompt, blurred handle, "Unlock Details"; with no credit, the flash sale.
    await card.getByRole("button", { name: "View" }).click();
    const detail = dialog(page, LOCKED_NAME_PLACEHOLDER);
    await detail.getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-detail-locked-mobile");
    await detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
    const sale = dialog(page, "Flash sale");
    await sale.getByText("67% off").waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-flash-sale-mobile");
    await sale.getByRole("button", { name: "Not now" }).click();
    await detail.getByRole("button", { name: "Close" }).click();
    await list.getByRole("button", { name: "Close" }).click();

    // Buy Unlocks → unlock-3 → the local card form → 4242 4242 4242 4242.
    await page.getByRole("button", { name: "Buy Unlocks" }).click();
    const packages = dialog(page, "Buy Unlocks");
    await packages.getByText("3 unlocks").click();
    await packages.getByRole("button", { name: "Continue · $7.99" }).click();
    const checkout = dialog(page, "Checkout");
    await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
    await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
    await checkout.getByLabel("Security code (CVC)").fill("123");
    await settle(page);
    await saveScreenshot(page, "payment-form-mobile");
    await checkout.getByRole("button", { name: "Pay $7.99" }).click();
    await page.getByText(TOASTS.paymentSuccessful).waitFor();
    await checkout.waitFor({ state: "detached" });
    expect((await me(recipient)).remainingUnlocks).toBe(3);

    // Now the unlock spends a credit and reveals the voter.
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    await list.getByRole("listitem").first().getByRole("button", { name: "View" }).click();
    await detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
    const confirm = dialog(page, SCREEN_TEXT.useUnlockCredit);
    await confirm.getByText("You have 3 unlocks left.", { exact: false }).waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-confirm-mobile");
    await confirm.getByRole("button", { name: "Use 1 unlock" }).click();
    await page.getByText(TOASTS.profileUnlocked).waitFor();
    const revealed = dialog(page, "Quinlan");
    await revealed.getByRole("link", { name: "@quinlan.builds" }).waitFor();
    await revealed.getByText("2026").waitFor();
    await expect.poll(() => revealed.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await settle(page);
    await saveScreenshot(page, "inbox-unlocked-mobile");
    await revealed.getByRole("button", { name: "Done" }).click();
    await list.getByRole("listitem").first().getByText("Quinlan").waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-votes-unlocked-mobile");
    expect((await me(recipient)).remainingUnlocks).toBe(2);
    expect(errors).toEqual([]);

    // The same list on a laptop.
    const desktop = await openHomeAs(browser, { ...recipient, me: await me(recipient) }, "desktop");
    opened.push(desktop);
    await desktop.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    await dialog(desktop.page, SCREEN_TEXT.votedOnYou).getByRole("listitem").first().getByText("Quinlan").waitFor();
    await settle(desktop.page);
    await saveScreenshot(desktop.page, "inbox-votes-desktop");
    await dialog(desktop.page, SCREEN_TEXT.votedOnYou).getByRole("listitem").first().getByRole("button", { name: "View" }).click();
    await dialog(desktop.page, "Quinlan").getByRole("link", { name: "@quinlan.builds" }).waitFor();
    await settle(desktop.page);
    await saveScreenshot(desktop.page, "inbox-unlocked-desktop");
    expect(desktop.errors).toEqual([]);
  });

  it("a declined card (4000 0000 0000 0002) shows the decline message and buys nothing", async () => {
    const student = await createStudent("+15555550821", {
      firstName: "Dana",
      gender: "female",
      preference: "male",
      instagramHandle: "@dana.e2e",
      graduationYear: 2028,
      colors: [[22, 163, 74], [37, 99, 235]],
    });
    const home = await openHomeAs(browser, student);
    opened.push(home);
    const { page, errors } = home;

    await page.getByRole("button", { name: "Buy Unlocks" }).click();
    const packages = dialog(page, "Buy Unlocks");
    await packages.getByText("3 unlocks").click();
    await settle(page);
    await saveScreenshot(page, "buy-unlocks-mobile");
    await packages.getByRole("button", { name: "Continue · $7.99" }).click();
    const checkout = await payWithCard(page, "4000 0000 0000 0002", "Pay $7.99");
    await checkout.getByRole("alert").getByText("Your card was declined.").waitFor();
    await settle(page);
    await saveScreenshot(page, "payment-declined-mobile");
    expect((await me(student)).remainingUnlocks).toBe(0);
    // A failed payment is not a page error; nothing else may be.
    expect(errors.filter((e) => !/402|Payment Required/i.test(e))).toEqual([]);
  });

  it("a boost purchase shows the remaining time", async () => {
    const student = await createStudent("+15555550831", {
      firstName: "Blair",
      gender: "male",
      preference: "female",
      instagramHandle: "@blair.e2e",
      graduationYear: 2025,
      colors: [[190, 24, 93], [250, 204, 21]],
    });
    const home = await openHomeAs(browser, student);
    opened.push(home);
    const { page, errors } = home;
    expect(await page.getByText(/Boosted ·/).count()).toBe(0);

    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    const list = dialog(page, SCREEN_TEXT.votedOnYou);
    await list.getByText(SCREEN_TEXT.noVotesTitle).waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-empty-mobile");
    await list.getByRole("button", { name: "Boost" }).click();
    const boost = dialog(page, "Boost your profile");
    await boost.getByText(SCREEN_TEXT.boostTagline).waitFor();
    await boost.getByText("24 hours", { exact: true }).click();
    await settle(page);
    await saveScreenshot(page, "boost-mobile");
    await boost.getByRole("button", { name: "Boost · $4.99" }).click();
    await payWithCard(page, "4242 4242 4242 4242", "Pay $4.99");
    await page.getByText(TOASTS.paymentSuccessful).waitFor();
    await boost.waitFor({ state: "detached" });
    await list.getByRole("button", { name: "Close" }).click();

    const status = page.getByText(/Boosted ·/);
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^Boosted · (1d 0h|23h 5\dm) left$/);
    const boostEnd = (await me(student)).boostEndTime;
    expect(boostEnd && Date.parse(boostEnd) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await settle(page);
    await saveScreenshot(page, "boost-status-mobile");
    expect(errors).toEqual([]);
  });
});
