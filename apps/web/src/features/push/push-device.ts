/**
 * This device's Web Push subscription, through the browser's service worker
 * and PushManager. The server keeps one subscription per device; these
 * helpers only talk to the browser.
 */

/** What this browser can do about push notifications. */
export type PushSupport = "supported" | "ios-install-first" | "unsupported";

interface BrowserFacts {
  userAgent: string;
  maxTouchPoints: number;
  /** Safari's flag for a page opened from the home screen. */
  standalone?: boolean;
  displayModeStandalone: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
}

/**
 * iOS and iPadOS Safari offer Web Push only to a web app added to the home
 * screen; in a tab they have no PushManager at all. (iPadOS says it is a Mac,
 * with touch points.)
 */
export function pushSupportOf(facts: BrowserFacts): PushSupport {
  const ios =
    /iPad|iPhone|iPod/.test(facts.userAgent) || (/Macintosh/.test(facts.userAgent) && facts.maxTouchPoints > 1);
  const installed = facts.standalone === true || facts.displayModeStandalone;
  if (ios && !installed) return "ios-install-first";
  return facts.hasServiceWorker && facts.hasPushManager && facts.hasNotification ? "supported" : "unsupported";
}

export function browserPushSupport(): PushSupport {
  // The development server has no service worker: push works in the built app.
  if (import.meta.env.DEV) return "unsupported";
  return pushSupportOf({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    standalone: (navigator as Navigator & { standalone?: boolean }).standalone,
    displayModeStandalone:
      typeof window.matchMedia === "function" && window.matchMedia("(display-mode: standalone)").matches,
    hasServiceWorker: "serviceWorker" in navigator,
    hasPushManager: "PushManager" in window,
    hasNotification: "Notification" in window,
  });
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** How long the service worker may take to be ready before the switch gives up (it never is where registration failed). */
const WORKER_READY_TIMEOUT_MS = 10_000;

function serviceWorkerReady(): Promise<ServiceWorkerRegistration> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(
      () => reject(new Error("The service worker is not running")),
      WORKER_READY_TIMEOUT_MS,
    );
    void navigator.serviceWorker.ready.then((registration) => {
      window.clearTimeout(timer);
      resolve(registration);
    });
  });
}

/** This device's current subscription, if notifications are allowed and it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (Notification.permission !== "granted") return null;
  const registration = await serviceWorkerReady();
  return registration.pushManager.getSubscription();
}

export type SubscribeOutcome = { subscription: PushSubscription } | { refused: "denied" | "dismissed" };

/** Asks the browser's permission (only on the student's tap) and subscribes with the server's key. */
export async function subscribeThisDevice(vapidPublicKey: string): Promise<SubscribeOutcome> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return { refused: permission === "denied" ? "denied" : "dismissed" };
  const registration = await serviceWorkerReady();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(vapidPublicKey),
  });
  return { subscription };
}

/** The parts of a subscription the server stores. */
export function subscriptionInput(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return {
    endpoint: json.endpoint ?? subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  };
}

/**
 * Signing out takes this device off push: the browser drops its subscription,
 * so the push service answers the server's next push with 410 and the server
 * forgets the device. Nothing to do where push is not supported.
 */
export function forgetThisDevicesPush(): void {
  if (browserPushSupport() !== "supported") return;
  void currentSubscription()
    .then((subscription) => subscription?.unsubscribe())
    .catch(() => undefined);
}

/**
 * The countdown ended while this tab is hidden: the service worker shows
 * "Your votes are back" (only with notifications allowed; a visible page
 * shows the next round itself).
 */
export function tellVotesAreBack(title: string, body: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState !== "hidden" || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration) => registration.showNotification(title, { body, tag: "votes-back", data: { url: "/home" } }))
    .catch(() => undefined);
}
