import { vi } from "vitest";

export const VAPID_KEY = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";

/** A browser with push: permission granted, a service worker whose PushManager keeps one subscription. */
export function fakePushDevice({ subscribed = false } = {}) {
  const input = {
    endpoint: "https://push.example.com/send/device-1",
    expirationTime: null,
    keys: { p256dh: VAPID_KEY, auth: "AAAAAAAAAAAAAAAAAAAAAA" },
  };
  const subscription = {
    endpoint: input.endpoint,
    toJSON: () => input,
    unsubscribe: () => {
      current = null;
      return Promise.resolve(true);
    },
  };
  let current: typeof subscription | null = subscribed ? subscription : null;
  const registration = {
    pushManager: {
      getSubscription: () => Promise.resolve(current),
      subscribe: () => Promise.resolve((current = subscription)),
    },
  };
  vi.stubEnv("DEV", false);
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", { permission: "granted", requestPermission: () => Promise.resolve("granted") });
  Object.defineProperty(navigator, "serviceWorker", {
    value: { ready: Promise.resolve(registration) },
    configurable: true,
  });
  return { input };
}

/** Undoes fakePushDevice (call in afterEach). */
export function forgetFakePushDevice() {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
}
