import { TOASTS } from "@quad/contracts";
import { configure, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { authTrpcHandler, codeSent, createMeUser, createPublicConfig, createTokens, server } from "../../../test/msw";
import { renderApp } from "../../../test/render";
import { authTestRoutes } from "../test-routes";
import type * as FirebasePhoneAuthModule from "./firebase-phone-auth";
import type { FirebasePhoneSdk } from "./firebase-phone-auth";

// Lazy screens and the lazy toast container appear slowly on a cold, busy machine.
configure({ asyncUtilTimeout: 4_000 });

const firebase = vi.hoisted(() => ({
  load: vi.fn(),
  hosts: [] as HTMLElement[],
}));

// The real flow logic with a stand-in for the Firebase SDK (unreachable from tests).
vi.mock("./firebase-phone-auth", async (importOriginal) => {
  const actual = await importOriginal<typeof FirebasePhoneAuthModule>();
  return { ...actual, loadFirebasePhoneSdk: firebase.load };
});

function fakeSdk(): FirebasePhoneSdk {
  return {
    createVerifier: (element) => {
      firebase.hosts.push(element);
      return { clear: () => undefined };
    },
    signInWithPhoneNumber: () =>
      Promise.resolve({
        confirm: () => Promise.resolve({ user: { getIdToken: () => Promise.resolve("firebase-id-token") } }),
      }),
    signOut: () => Promise.resolve(),
  };
}

const FIREBASE = { apiKey: "key", authDomain: "quad-test.firebaseapp.com", projectId: "quad-test" };

async function logIn() {
  const user = userEvent.setup();
  const view = renderApp("/login", { routes: authTestRoutes });
  await user.type(await screen.findByLabelText("Phone number"), "2025550123");
  await user.click(screen.getByRole("button", { name: "Send Code" }));
  expect(await screen.findByText(TOASTS.codeSent)).toBeTruthy();
  // The sixth digit sends it.
  await user.type(screen.getByLabelText("Verification code"), "123456");
  return view;
}

describe("the phone flow follows config.public", { timeout: 30_000 }, () => {
  it("local: the server's own codes, and Firebase is never loaded", async () => {
    const sent: unknown[] = [];
    server.use(
      authTrpcHandler({
        "auth.sendCode": ({ input }) => {
          sent.push(input);
          return codeSent();
        },
        "users.me": () => createMeUser(),
      }),
    );
    await logIn();
    expect(await screen.findByRole("heading", { name: "Home" })).toBeTruthy();
    expect(sent).toEqual([{ phone: "+12025550123" }]);
    expect(firebase.load).not.toHaveBeenCalled();
  });

  it("firebase: loads the SDK for the server's project, verifies on the page's reCAPTCHA host, trades the ID token", async () => {
    firebase.load.mockResolvedValue(fakeSdk());
    const traded: unknown[] = [];
    server.use(
      authTrpcHandler({
        "config.public": () => createPublicConfig({ authProvider: "firebase", firebase: FIREBASE }),
        "auth.sendCode": () => {
          throw new Error("the local provider must not be used");
        },
        "auth.firebase": ({ input }) => {
          traded.push(input);
          return createTokens();
        },
        "users.me": () => createMeUser(),
      }),
    );
    await logIn();
    expect(await screen.findByRole("heading", { name: "Home" })).toBeTruthy();
    expect(firebase.load).toHaveBeenCalledWith(FIREBASE);
    expect(firebase.hosts).toHaveLength(1);
    expect(traded).toEqual([{ idToken: "firebase-id-token" }]);
  });
});
