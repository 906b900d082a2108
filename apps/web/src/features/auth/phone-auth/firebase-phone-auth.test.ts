import { TOASTS } from "@quad/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTokens } from "../../../test/msw";
import { createFirebasePhoneAuth, type FirebasePhoneSdk, type PhoneConfirmation } from "./firebase-phone-auth";
import { PhoneAuthError, selectPhoneAuthFlow, type PhoneAuthFlow } from "./phone-auth";
import { createVerifierKeeper, isRemovedElementError } from "./recaptcha-keeper";

const TOKENS = createTokens({ expiresAt: "2030-01-01T00:00:00.000Z" });

class FakeVerifier {
  cleared = false;
  constructor(readonly element: HTMLElement) {}
  clear() {
    this.cleared = true;
  }
}

function mountHost(): HTMLElement {
  const element = document.createElement("div");
  document.body.append(element);
  return element;
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the reCAPTCHA verifier keeper", () => {
  it("reuses the verifier while its element is on the page", () => {
    const create = vi.fn((element: HTMLElement) => new FakeVerifier(element));
    const keeper = createVerifierKeeper(create);
    const host = mountHost();
    expect(keeper.get(host)).toBe(keeper.get(host));
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("re-creates an invisible verifier on the new element once its element was removed", () => {
    const create = vi.fn((element: HTMLElement) => new FakeVerifier(element));
    const keeper = createVerifierKeeper(create);
    const first = mountHost();
    const old = keeper.get(first);

    first.remove();
    const second = mountHost();
    const fresh = keeper.get(second);

    expect(fresh).not.toBe(old);
    expect(fresh.element).toBe(second);
    expect(old.cleared).toBe(true);
    expect(create).toHaveBeenCalledTimes(2);
  });

  it("recognises Firebase's removed-element error", () => {
    expect(isRemovedElementError(new Error("reCAPTCHA client element has been removed: 0"))).toBe(true);
    expect(isRemovedElementError(new Error("auth/invalid-phone-number"))).toBe(false);
  });
});

describe("the Firebase phone flow", () => {
  function fakeSdk(signIn: FirebasePhoneSdk<FakeVerifier>["signInWithPhoneNumber"]) {
    const created: FakeVerifier[] = [];
    const sdk: FirebasePhoneSdk<FakeVerifier> = {
      createVerifier: (element) => {
        const verifier = new FakeVerifier(element);
        created.push(verifier);
        return verifier;
      },
      signInWithPhoneNumber: vi.fn(signIn),
      signOut: vi.fn(() => Promise.resolve()),
    };
    return { sdk, created };
  }

  const confirmation = (idToken = "firebase-id-token"): PhoneConfirmation => ({
    confirm: (code) =>
      code === "123456"
        ? Promise.resolve({ user: { getIdToken: () => Promise.resolve(idToken) } })
        : Promise.reject(Object.assign(new Error("bad code"), { code: "auth/invalid-verification-code" })),
  });

  it("sends with a verifier on the current element, then trades the ID token for our session", async () => {
    const { sdk, created } = fakeSdk(() => Promise.resolve(confirmation()));
    const host = mountHost();
    const exchangeIdToken = vi.fn(() => Promise.resolve(TOKENS));
    const flow = createFirebasePhoneAuth({ sdk, getContainer: () => host, exchangeIdToken });

    await expect(flow.sendCode("+12025550123")).resolves.toEqual({ retryAfterSeconds: 30 });
    expect(created.map((v) => v.element)).toEqual([host]);

    await expect(flow.verifyCode("+12025550123", "123456", { sms: true, terms: true })).resolves.toEqual(TOKENS);
    expect(exchangeIdToken).toHaveBeenCalledWith("firebase-id-token", { sms: true, terms: true });
    expect(sdk.signOut).toHaveBeenCalled();
  });

  it("when the step re-rendered and the old element is gone, the next send uses a fresh verifier", async () => {
    const { sdk, created } = fakeSdk(() => Promise.resolve(confirmation()));
    let host = mountHost();
    const flow = createFirebasePhoneAuth({
      sdk,
      getContainer: () => host,
      exchangeIdToken: () => Promise.resolve(TOKENS),
    });

    await flow.sendCode("+12025550123");
    host.remove();
    host = mountHost();
    await flow.sendCode("+12025550123");

    expect(created).toHaveLength(2);
    expect(created[0]!.cleared).toBe(true);
    expect(created[1]!.element).toBe(host);
  });

  it("retries once on a fresh verifier when Firebase reports the element was removed", async () => {
    let calls = 0;
    const { sdk, created } = fakeSdk(() => {
      calls += 1;
      return calls === 1
        ? Promise.reject(new Error("reCAPTCHA client element has been removed: 0"))
        : Promise.resolve(confirmation());
    });
    const host = mountHost();
    const flow = createFirebasePhoneAuth({
      sdk,
      getContainer: () => host,
      exchangeIdToken: () => Promise.resolve(TOKENS),
    });

    await expect(flow.sendCode("+12025550123")).resolves.toEqual({ retryAfterSeconds: 30 });
    expect(sdk.signInWithPhoneNumber).toHaveBeenCalledTimes(2);
    expect(created).toHaveLength(2);
    expect(created[0]!.cleared).toBe(true);
  });

  it("turns Firebase error codes into the product's messages", async () => {
    const { sdk } = fakeSdk(() => Promise.resolve(confirmation()));
    const host = mountHost();
    const flow = createFirebasePhoneAuth({
      sdk,
      getContainer: () => host,
      exchangeIdToken: () => Promise.resolve(TOKENS),
    });
    await flow.sendCode("+12025550123");
    await expect(flow.verifyCode("+12025550123", "000000")).rejects.toEqual(new PhoneAuthError(TOASTS.invalidCode));

    const failing = fakeSdk(() => Promise.reject(Object.assign(new Error("x"), { code: "auth/internal-error" })));
    const other = createFirebasePhoneAuth({
      sdk: failing.sdk,
      getContainer: () => host,
      exchangeIdToken: () => Promise.resolve(TOKENS),
    });
    await expect(other.sendCode("+12025550123")).rejects.toEqual(new PhoneAuthError(TOASTS.sendCodeFailed));
  });
});

describe("choosing the phone flow from the server's configuration", () => {
  const local: PhoneAuthFlow = { sendCode: vi.fn(), verifyCode: vi.fn() };
  const firebase: PhoneAuthFlow = { sendCode: vi.fn(), verifyCode: vi.fn() };
  const firebaseConfig = { apiKey: "key", authDomain: "quad.firebaseapp.com", projectId: "quad" };
  const base = { paymentProvider: "local", stripePublishableKey: null, vapidPublicKey: null } as const;

  it("uses our own codes for the local provider and never loads Firebase", async () => {
    const loadFirebase = vi.fn(() => Promise.resolve(firebase));
    const flow = await selectPhoneAuthFlow(
      { ...base, authProvider: "local", firebase: null },
      { local: () => local, firebase: loadFirebase },
    );
    expect(flow).toBe(local);
    expect(loadFirebase).not.toHaveBeenCalled();
  });

  it("loads the Firebase flow with the server's Firebase project when configured", async () => {
    const loadFirebase = vi.fn(() => Promise.resolve(firebase));
    const flow = await selectPhoneAuthFlow(
      { ...base, authProvider: "firebase", firebase: firebaseConfig },
      { local: () => local, firebase: loadFirebase },
    );
    expect(flow).toBe(firebase);
    expect(loadFirebase).toHaveBeenCalledWith(firebaseConfig);
  });
});
