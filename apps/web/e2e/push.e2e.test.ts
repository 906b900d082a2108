import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { pushNotice, SCREEN_TEXT } from "@quad/contracts";
import { browserSubscription, startFakePushService, type FakePushService } from "@quad/server/test/push-service";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PUSH_TEXT } from "../src/features/push/texts";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * Vote notifications on this device, in real Chromium with Quad's real
 * service worker. Chromium here cannot reach a browser vendor's push service,
 * so PushManager's subscribe (and getSubscription, which must agree with it)
 * answer a subscription whose endpoint is a local push service and whose keys
 * are a real P-256 pair; everything else (permission, service worker, the
 * Settings switch, the server's validation and storage) is the real thing.
 */

const { api, createStudent } = createApi(baseURL, "203.0.113.161");
const SCREENSHOTS_DIR = resolve(import.meta.dirname, "screenshots");

let service: FakePushService;
beforeAll(async () => {
  service = await startFakePushService();
});
afterAll(() => service?.close());

interface StubbedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The PushManager stand-in, installed before any of the app's code runs; it survives navigations (sessionStorage). */
function stubPushManager(subscription: StubbedSubscription) {
  const STORE = "e2e-push-subscription";
  const make = (): PushSubscription =>
    ({
      endpoint: subscription.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: () => null,
      toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
      unsubscribe: async () => {
        sessionStorage.removeItem(STORE);
        return true;
      },
    }) as unknown as PushSubscription;
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
    const base64url = btoa(String.fromCharCode(...key))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    sessionStorage.setItem(
      STORE,
      JSON.stringify({ userVisibleOnly: options?.userVisibleOnly, applicationServerKey: base64url }),
    );
    return make();
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem(STORE) ? make() : null;
  };
}

const MOBILE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };

async function settingsPage(context: BrowserContext, student: Student) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
  });
  await page.goto(`${baseURL}/terms`, { waitUntil: "networkidle" });
  // The worker is active before the next navigation, so that page is controlled from its first request: a page
  // still loading when the worker activates can miss its clients.claim() and stay uncontrolled until reloaded.
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await openSignedIn(page, baseURL, student, "/settings");
  await page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
  return { page, errors };
}

const notificationsSection = (page: Page) => page.getByRole("region", { name: "Notifications", exact: true });
const pushSwitch = (page: Page) => page.getByRole("switch", { name: PUSH_TEXT.title });

async function screenshotSection(page: Page, name: string) {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await animationsSettled(page);
  await notificationsSection(page).screenshot({
    path: resolve(SCREENSHOTS_DIR, `${name}.png`),
    animations: "disabled",
  });
}

/** The service worker's registration id, as Chromium's DevTools protocol names it. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolveId) => {
    cdp.on(
      "ServiceWorker.workerRegistrationUpdated",
      ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        const ours = registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
        if (ours) resolveId(ours.registrationId);
      },
    );
  });
  await cdp.send("ServiceWorker.enable");
  return found;
}

describe("notifications on this device", () => {
  const chromium = useBrowser();

  it(
    "subscribes through the service worker, shows a pushed notice, opens 'Voted on you' from it, and unsubscribes",
    { timeout: 120_000 },
    async () => {
      const ava = await createStudent("+12027400161", { firstName: "Ava", gender: "female", colors: hueColors(320) });
      const device = browserSubscription(service.endpoint("ava-phone"));
      const context = await chromium.browser.newContext(MOBILE);
      try {
        await context.grantPermissions(["notifications"], { origin: baseURL });
        await context.addInitScript(stubPushManager, { endpoint: device.endpoint, keys: device.keys });
        const { page, errors } = await settingsPage(context, ava);
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

        const toggle = pushSwitch(page);
        await page.getByText(PUSH_TEXT.replacesTexts).waitFor();
        expect(await toggle.isChecked()).toBe(false);
        await toggle.click();
        await page.getByText(PUSH_TEXT.on).waitFor();
        expect(await toggle.isChecked()).toBe(true);
        await screenshotSection(page, "settings-notifications-mobile");

        // It subscribed with the server's VAPID key, and the server stored this device.
        const { vapidPublicKey } = await api<{ vapidPublicKey: string }>("/config");
        const asked = await page.evaluate(() => JSON.parse(sessionStorage.getItem("e2e-push-subscription") ?? "null"));
        expect(asked).toEqual({ userVisibleOnly: true, applicationServerKey: vapidPublicKey });
        const exported = () =>
          api<{ pushDevices: { pushService: string }[] }>("/users/export", { token: ava.tokens.token });
        expect((await exported()).pushDevices).toEqual([
          { pushService: new URL(service.origin).host, since: expect.any(String) },
        ]);

        // A push reaches the real service worker, which shows the notice: counts only.
        const cdp = await context.newCDPSession(page);
        await cdp.send("ServiceWorker.deliverPushMessage", {
          origin: baseURL,
          registrationId: await registrationId(cdp),
          data: JSON.stringify(pushNotice(2)),
        });
        const shown = async () =>
          page.evaluate(async () =>
            (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
              title: n.title,
              body: n.body,
              data: n.data as unknown,
            })),
          );
        await expect.poll(shown, { timeout: 10_000 }).toEqual([
          {
            title: "You got 2 new votes on Quad!",
            body: "Tap to see who voted for you.",
            data: { url: "/home?votes=1" },
          },
        ]);

        // Opening it (Chromium cannot click a system notification here: the worker gets the same event) moves
        // the open window to /home with "Voted on you" showing.
        const worker = context.serviceWorkers()[0]!;
        await worker.evaluate(async () => {
          // Worker types are not in this program's libraries: the few used here, by hand.
          const scope = self as unknown as {
            registration: ServiceWorkerRegistration;
            dispatchEvent(event: Event): boolean;
          };
          const Click = (
            self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }
          ).NotificationEvent;
          const [notification] = await scope.registration.getNotifications();
          try {
            scope.dispatchEvent(new Click("notificationclick", { notification: notification! }));
          } catch {
            // waitUntil refuses events the browser did not send; the handler has already acted.
          }
        });
        await page.waitForURL(`${baseURL}/home?votes=1`);
        await page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou }).waitFor();

        // Off removes the subscription from the server and the browser.
        await page.goto(`${baseURL}/settings`, { waitUntil: "networkidle" });
        await page.getByText(PUSH_TEXT.on).waitFor();
        await pushSwitch(page).click();
        await page.getByText(PUSH_TEXT.off).waitFor();
        expect((await exported()).pushDevices).toEqual([]);
        expect(await page.evaluate(() => sessionStorage.getItem("e2e-push-subscription"))).toBeNull();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    "on a laptop the switch sits with the texts' switch; on an iPhone outside the home screen it says to add Quad first",
    { timeout: 90_000 },
    async () => {
      const noah = await createStudent("+12027400162", { firstName: "Noah", gender: "male", colors: hueColors(200) });
      const laptop = await chromium.browser.newContext(LAPTOP);
      try {
        const { page, errors } = await settingsPage(laptop, noah);
        await pushSwitch(page).waitFor();
        expect(await pushSwitch(page).isDisabled()).toBe(false);
        await screenshotSection(page, "settings-notifications-desktop");
        expect(errors).toEqual([]);
      } finally {
        await laptop.close();
      }

      const iphone = await chromium.browser.newContext({
        ...MOBILE,
        userAgent:
          "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      });
      try {
        const { page, errors } = await settingsPage(iphone, noah);
        await page.getByText(PUSH_TEXT.iosInstallFirst).waitFor();
        expect(await pushSwitch(page).isDisabled()).toBe(true);
        await screenshotSection(page, "settings-notifications-iphone");
        expect(errors).toEqual([]);
      } finally {
        await iphone.close();
      }
    },
  );
});
