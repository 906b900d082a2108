import { resolve } from "node:path";
import {
  AUTH_CODE,
  SCHOOL_EMAIL_MESSAGES,
  SCREEN_TEXT,
  SMS_CONSENT_TEXT,
  TERMS_CONSENT_TEXT,
  TOASTS,
} from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { JUNIORS } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, type OpenedPage } from "./browser";

const baseURL = inject("baseURL");

/** A fresh valid US number per run (202-9xx-xxxx), outside the ranges the other suites use. */
function newPhone(): { digits: string; e164: string } {
  const digits = `2029${String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0")}`;
  return { digits, e164: `+1${digits}` };
}

interface OutboxMessage {
  to: string;
  body: string;
  createdAt: string;
}

async function outbox(e164: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseURL}/api/dev/sms-outbox?phone=${encodeURIComponent(e164)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** Reads the newest code texted to `e164`, waiting for a message newer than `after` (epoch ms). */
async function codeSentTo(e164: string, after = 0): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const [newest] = await outbox(e164);
    if (newest && Date.parse(newest.createdAt) > after) {
      const code = /\b(\d{6})\b/.exec(newest.body)?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No code was texted to ${e164}`);
}

/** A 3:4-ish portrait JPEG drawn in the page (a stand-in selfie), as bytes. */
async function drawTestPhoto(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const width = 1080;
    const height = 1350;
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext("2d")!;
    const sky = ctx.createLinearGradient(0, 0, width, height);
    sky.addColorStop(0, "#c4b5fd");
    sky.addColorStop(0.6, "#f9a8d4");
    sky.addColorStop(1, "#fdba74");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, width, height);
    // Shoulders, neck, face, hair, eyes and a smile.
    ctx.fillStyle = "#4c1d95";
    ctx.beginPath();
    ctx.ellipse(width / 2, height + 60, 420, 380, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#f2c6a0";
    ctx.fillRect(width / 2 - 70, 760, 140, 160);
    ctx.beginPath();
    ctx.ellipse(width / 2, 600, 210, 260, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#3b2314";
    ctx.beginPath();
    ctx.ellipse(width / 2, 450, 240, 170, 0, Math.PI, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#1f1300";
    for (const x of [width / 2 - 80, width / 2 + 80]) {
      ctx.beginPath();
      ctx.arc(x, 590, 18, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.strokeStyle = "#9f1239";
    ctx.lineWidth = 14;
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.arc(width / 2, 680, 80, 0.15 * Math.PI, 0.85 * Math.PI);
    ctx.stroke();
    const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.9 });
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
  return Buffer.from(bytes);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name }).waitFor();
const next = (page: Page) => page.getByRole("button", { name: "Next", exact: true }).click();
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

/**
 * A screenshot with animations left running: react-toastify closes a toast
 * when its (hidden) timer animation ends, so `saveScreenshot`, which
 * finishes animations, would close it before the picture is taken.
 */
async function saveScreenshotWithToast(page: Page, name: string): Promise<void> {
  await animationsSettled(page); // the toast's slide-in
  await page.screenshot({ path: resolve(import.meta.dirname, "screenshots", `${name}.png`) });
}

/** Chromium logs failed requests as console errors; an expected 404 is not a page error. */
function unexpectedErrors(errors: string[]): string[] {
  return errors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e));
}

describe("sign-up and log-in", () => {
  const chromium = useBrowser();

  async function open(kind: "mobile" | "desktop", path: string): Promise<OpenedPage> {
    return chromium.open(kind, `${baseURL}${path}`);
  }

  it(
    "a new student signs up through the whole wizard, stays signed in, logs out and logs back in",
    { timeout: 180_000 },
    async () => {
      const phone = newPhone();
      const { page, errors } = await open("mobile", "/signup?preference=female");

      // 1. First name (with its validation message).
      await heading(page, "Create your account");
      await next(page);
      await page.getByText("First name is required").waitFor();
      await page.getByLabel("First name").fill("Jordan");
      await saveScreenshot(page, "signup-1-personal");
      await next(page);

      // 2. University. A reload here comes back to this step with the name kept.
      await heading(page, "Where do you study?");
      await page.reload({ waitUntil: "networkidle" });
      await heading(page, "Where do you study?");
      await page.getByRole("button", { name: "Back" }).click();
      await heading(page, "Create your account");
      expect(await page.getByLabel("First name").inputValue()).toBe("Jordan");
      await next(page);
      await heading(page, "Where do you study?");
      const firstSchool = page
        .locator("label")
        .filter({ has: page.getByRole("radio") })
        .first();
      await firstSchool.waitFor();
      await firstSchool.click();
      await saveScreenshot(page, "signup-2-university");

      // 3. Class of.
      await heading(page, "When do you graduate?");
      await page.locator("label", { hasText: String(JUNIORS) }).click();
      await saveScreenshot(page, "signup-3-graduation");

      // 4. Gender.
      await heading(page, "Guy or girl?");
      await page.locator("label", { hasText: "Guy" }).click();
      await saveScreenshot(page, "signup-4-gender");

      // 5. Instagram (the @ comes by itself). The browser's Back goes one step back, still in the wizard.
      await heading(page, "What's your Instagram?");
      await page.goBack({ waitUntil: "commit" });
      await heading(page, "Guy or girl?");
      expect(new URL(page.url()).pathname).toBe("/signup");
      await page.goForward({ waitUntil: "commit" });
      await heading(page, "What's your Instagram?");
      await page.getByLabel("Instagram").pressSequentially("jordan.e2e");
      expect(await page.getByLabel("Instagram").inputValue()).toBe("@jordan.e2e");
      await saveScreenshot(page, "signup-5-instagram");
      await next(page);

      // 6. Phone: both consents before the number, then the code from the dev outbox.
      await heading(page, "Verify your phone");
      const phoneInput = page.getByLabel("Phone number");
      const sendCode = page.getByRole("button", { name: "Send Code" });
      expect(await phoneInput.isDisabled()).toBe(true);
      expect(await sendCode.isDisabled()).toBe(true);
      await saveScreenshot(page, "signup-6-phone");
      await page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }).check();
      await page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }).check();
      await phoneInput.pressSequentially(phone.digits);
      expect(await phoneInput.inputValue()).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
      await saveScreenshot(page, "signup-6-phone-filled");
      const signupCodeAt = Date.now() - 1000;
      await sendCode.click();
      await toast(page, TOASTS.codeSent);
      // Five digits for the picture; the sixth verifies by itself.
      const signupCode = await codeSentTo(phone.e164);
      await page.getByLabel("Verification code").fill(signupCode.slice(0, 5));
      await saveScreenshot(page, "signup-6-phone-code");
      await page.getByLabel("Verification code").pressSequentially(signupCode.slice(5));

      // 7. Photo: pick, crop with zoom, preview, complete.
      await heading(page, "Add your photo");
      expect(await page.getByRole("button", { name: "Back" }).isDisabled()).toBe(true);
      await saveScreenshot(page, "signup-7-photo");
      await page.getByLabel("Choose photo").setInputFiles({
        name: "selfie.jpg",
        mimeType: "image/jpeg",
        buffer: await drawTestPhoto(page),
      });
      await page.locator(".cropper-crop-box").waitFor();
      const zoom = page.getByLabel("Zoom");
      await expect.poll(() => zoom.isEnabled()).toBe(true);
      expect(await zoom.getAttribute("min")).toBe("1");
      expect(await zoom.getAttribute("max")).toBe("3");
      expect(await zoom.getAttribute("step")).toBe("0.1");
      await zoom.fill("1.3");
      await saveScreenshot(page, "signup-7-photo-crop");
      await page.getByRole("button", { name: "Preview Crop" }).click();
      const preview = page.getByRole("img", { name: "Your cropped profile photo" });
      await preview.waitFor();
      const box = await preview.boundingBox();
      expect(box?.height).toBeCloseTo(450, 0);
      expect((box?.width ?? 0) / (box?.height ?? 1)).toBeCloseTo(3 / 4, 2);
      await saveScreenshot(page, "signup-7-photo-preview");
      await page.getByRole("button", { name: "Complete" }).click();

      await page.waitForURL(`${baseURL}/home`);
      await toast(page, TOASTS.accountCreated);
      const logout = page.getByRole("button", { name: "Logout" });
      await logout.waitFor();
      await saveScreenshotWithToast(page, "signup-done-home");

      // 8. Rounds wait for a school e-mail: another school's address is refused, the school's own gets a code.
      await page.getByRole("heading", { level: 2, name: SCHOOL_EMAIL_MESSAGES.verifyToVote }).waitFor();
      expect(await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).count()).toBe(0);
      const schoolEmail = page.getByRole("textbox", { name: "School e-mail" });
      await expect.poll(() => schoolEmail.getAttribute("placeholder")).toMatch(/^you@(?!school\.edu)/);
      const domain = (await schoolEmail.getAttribute("placeholder"))!.slice("you@".length);
      await schoolEmail.fill("jordan@gmail.com");
      await page.getByRole("button", { name: "Send code" }).click();
      await page.getByText(/^That address isn't from .+\. Use your e-mail ending in @/).waitFor();
      await saveScreenshot(page, "verify-school-email");
      const address = `jordan.${phone.digits.slice(-4)}@${domain}`;
      await schoolEmail.fill(address);
      await page.getByRole("button", { name: "Send code" }).click();
      const emailCode = page.getByLabel("Verification code");
      await emailCode.waitFor();
      const outbox = await (await fetch(`${baseURL}/api/dev/email-outbox?to=${encodeURIComponent(address)}`)).json();
      await emailCode.fill(/\b(\d{6})\b/.exec((outbox as { messages: { body: string }[] }).messages[0]!.body)![1]!);
      await saveScreenshot(page, "verify-school-email-code");
      await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).waitFor();
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .waitFor();
      await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
      await saveScreenshot(page, "verified-first-round");

      // The profile was saved as entered, verified by the server, with the landing preference.
      const me = await page.evaluate(async () => {
        const { state } = JSON.parse(localStorage.getItem("user") ?? "{}") as { state: { token: string } };
        const response = await fetch("/api/users/me", { headers: { Authorization: `Bearer ${state.token}` } });
        return (await response.json()) as Record<string, unknown>;
      });
      expect(me).toMatchObject({
        phone: phone.e164,
        firstName: "Jordan",
        graduationYear: JUNIORS,
        gender: "male",
        instagramHandle: "@jordan.e2e",
        preference: "female",
        isVerified: true,
        schoolEmailVerified: true,
      });
      expect(me.profileImage).toMatch(/^\/api\/media\//);

      // A reload keeps the session.
      await page.reload({ waitUntil: "networkidle" });
      await logout.waitFor();
      expect(new URL(page.url()).pathname).toBe("/home");

      // Log out, then back in with a new code (the server allows one code per 30 s per number).
      await logout.click();
      await heading(page, "Log in");
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.getByLabel("Phone number").pressSequentially(phone.digits);
      // A deliberate wait: the server's resend interval is a time, and nothing on the page says when it is over.
      const wait = signupCodeAt + AUTH_CODE.resendIntervalMs + 1500 - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      await saveScreenshot(page, "login-phone");
      const loginCodeAt = Date.now() - 1000;
      await page.getByRole("button", { name: "Send Code" }).click();
      await toast(page, TOASTS.codeSent);
      // Five digits for the picture; the sixth sends the code (a screenshot ends the toasts' timers).
      const loginCode = await codeSentTo(phone.e164, loginCodeAt);
      await page.getByLabel("Verification code").fill(loginCode.slice(0, 5));
      await saveScreenshot(page, "login-code");
      await page.getByLabel("Verification code").pressSequentially(loginCode.slice(5));
      await page.waitForURL(`${baseURL}/home`);
      await toast(page, TOASTS.loggedIn);
      await page.getByRole("button", { name: "Logout" }).waitFor();

      expect(unexpectedErrors(errors)).toEqual([]);
    },
  );

  it(
    "a wrong code marks the field; a phone with no account sees 'No such user exists!' and stays signed out",
    { timeout: 90_000 },
    async () => {
      const phone = newPhone();
      const { page, errors } = await open("mobile", "/login");
      await heading(page, "Log in");
      await page.getByLabel("Phone number").pressSequentially(phone.digits);
      await page.getByRole("button", { name: "Send Code" }).click();
      await toast(page, TOASTS.codeSent);
      const code = await codeSentTo(phone.e164);
      // A wrong code first: the field is marked, emptied and focused for the right one.
      const field = page.getByLabel("Verification code");
      await field.fill(code === "000000" ? "111111" : "000000");
      await page.locator('input[name="code"][aria-invalid="true"]').waitFor();
      expect(await field.inputValue()).toBe("");
      expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
      // One toast at a time: "Invalid verification code" replaced "Verification code sent!".
      await expect.poll(() => page.locator(".Toastify__toast").count()).toBe(1);
      await saveScreenshotWithToast(page, "login-wrong-code");
      await field.fill(code);
      await toast(page, TOASTS.noSuchUser);
      await saveScreenshotWithToast(page, "login-no-such-user");
      expect(new URL(page.url()).pathname).toBe("/login");
      const stored = await page.evaluate(
        () => JSON.parse(localStorage.getItem("user") ?? "{}") as { state?: { token: unknown } },
      );
      expect(stored.state?.token ?? null).toBeNull();
      // The two failed requests: the wrong code's answer, and the right code's refusal of a number with
      // no account (a new account needs the sign-up consents, which the login screen never sends).
      expect(unexpectedErrors(errors)).toEqual([
        "console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
        "console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    },
  );

  it("/login and /signup look right on a laptop too", { timeout: 60_000 }, async () => {
    const { page, errors } = await open("desktop", "/signup");
    await heading(page, "Create your account");
    await saveScreenshot(page, "signup-desktop");
    await page.goto(`${baseURL}/opt-in`, { waitUntil: "networkidle" });
    await heading(page, "Verify your phone");
    await saveScreenshot(page, "opt-in-desktop");
    await page.goto(`${baseURL}/login`, { waitUntil: "networkidle" });
    await heading(page, "Log in");
    await saveScreenshot(page, "login-desktop");
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
