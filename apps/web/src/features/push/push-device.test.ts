import { afterEach, describe, expect, it, vi } from "vitest";
import { applicationServerKey, pushSupportOf, tellVotesAreBack } from "./push-device";

const chrome = {
  userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36",
  maxTouchPoints: 5,
  displayModeStandalone: false,
  hasServiceWorker: true,
  hasPushManager: true,
  hasNotification: true,
};
const iphoneSafari = {
  ...chrome,
  userAgent:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1",
  hasPushManager: false,
};

describe("push support on this device", () => {
  it("is there in a browser with a service worker, PushManager and notifications", () => {
    expect(pushSupportOf(chrome)).toBe("supported");
    expect(pushSupportOf({ ...chrome, hasPushManager: false })).toBe("unsupported");
  });

  it("needs Quad on the home screen first in iOS Safari (iPads say they are Macs)", () => {
    expect(pushSupportOf(iphoneSafari)).toBe("ios-install-first");
    expect(
      pushSupportOf({ ...iphoneSafari, userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15" }),
    ).toBe("ios-install-first");
    expect(pushSupportOf({ ...iphoneSafari, standalone: true, hasPushManager: true })).toBe("supported");
    expect(pushSupportOf({ ...iphoneSafari, displayModeStandalone: true, hasPushManager: true })).toBe("supported");
    // A Mac with a mouse is not an iPad.
    expect(
      pushSupportOf({
        ...chrome,
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15",
        maxTouchPoints: 0,
      }),
    ).toBe("supported");
  });

  it("turns the server's base64url VAPID key into the 65 bytes of a P-256 point", () => {
    const key = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";
    const bytes = applicationServerKey(key);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});

describe("tellVotesAreBack", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Reflect.deleteProperty(navigator, "serviceWorker");
  });

  function worker(permission: NotificationPermission) {
    const showNotification = vi.fn(() => Promise.resolve());
    vi.stubGlobal("Notification", { permission });
    Object.defineProperty(navigator, "serviceWorker", {
      value: { ready: Promise.resolve({ showNotification }) },
      configurable: true,
    });
    return showNotification;
  }

  it("notifies a hidden tab's student, with notifications allowed, and opens home on the tap", async () => {
    const shown = worker("granted");
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    tellVotesAreBack("Your votes are back", "A new batch");
    await vi.waitFor(() =>
      expect(shown).toHaveBeenCalledWith("Your votes are back", {
        body: "A new batch",
        tag: "votes-back",
        data: { url: "/home" },
      }),
    );
  });

  it("stays quiet for a visible page or without permission", async () => {
    const shown = worker("granted");
    tellVotesAreBack("t", "b");
    const refused = worker("default");
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    tellVotesAreBack("t", "b");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shown).not.toHaveBeenCalled();
    expect(refused).not.toHaveBeenCalled();
  });
});
