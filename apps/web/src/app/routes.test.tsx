import { TOASTS } from "@quad/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { defaultTrpcResolvers, server, trpcHandler } from "../test/msw";
import { renderApp, signIn, type SessionKind } from "../test/render";

/** Where each route lands for each session state (docs/product.md). */
const expectations: [path: string, session: SessionKind, landsOn: string][] = [
  ["/", "none", "/"],
  ["/", "unverified", "/signup"],
  ["/", "verified", "/home"],
  ["/login", "none", "/login"],
  ["/login", "unverified", "/login"],
  ["/login", "verified", "/home"],
  ["/signup", "none", "/signup"],
  ["/signup", "unverified", "/signup"],
  ["/signup", "verified", "/home"],
  ["/opt-in", "none", "/opt-in"],
  ["/opt-in", "unverified", "/opt-in"],
  ["/opt-in", "verified", "/home"],
  ["/home", "none", "/login"],
  ["/home", "unverified", "/signup"],
  ["/home", "verified", "/home"],
  ["/settings", "none", "/login"],
  ["/settings", "unverified", "/signup"],
  ["/settings", "verified", "/settings"],
  // Admins only: everyone else gets the 404 page (the server answers NOT_FOUND to admin.*).
  ["/admin", "none", "/admin"],
  ["/admin", "verified", "/admin"],
  ["/terms", "none", "/terms"],
  ["/terms", "unverified", "/terms"],
  ["/terms", "verified", "/terms"],
  ["/no-such-page", "none", "/no-such-page"],
  ["/no-such-page", "verified", "/no-such-page"],
];

/** The <h1> each landing route renders. */
const headings: Record<string, RegExp> = {
  "/": /vote on your classmates/i,
  "/login": /^log in$/i,
  // A signed-in student with an unverified profile resumes at the photo step.
  "/signup": /^(create your account|add your photo)$/i,
  "/opt-in": /^(verify your phone|add your photo)$/i,
  "/home": /^hey avery/i,
  "/terms": /privacy policy and terms and conditions/i,
  "/settings": /^settings$/i,
  "/admin": /page not found/i,
  "/no-such-page": /page not found/i,
};

describe("route gating", () => {
  it.each(expectations)("%s with session %s lands on %s", async (path, session, landsOn) => {
    signIn(session);
    const { location } = renderApp(path);
    // The first visit to a lazy screen compiles it: allow for a slow, busy machine.
    expect(await screen.findByRole("heading", { level: 1, name: headings[landsOn] }, { timeout: 5_000 })).toBeTruthy();
    expect(location.pathname).toBe(landsOn);
  });

  it('arriving at /home without a session says "No token found. Please log in." on the way to /login', async () => {
    signIn("none");
    const { location } = renderApp("/home");
    expect(await screen.findByText(TOASTS.noToken, undefined, { timeout: 5_000 })).toBeTruthy();
    expect(location.pathname).toBe("/login");
  });

  it("signing in with a token but no profile yet counts as unverified", async () => {
    signIn("none");
    const { useSessionStore } = await import("../lib/session-store");
    useSessionStore.getState().setToken("fresh-token");
    const { location } = renderApp("/home");
    await waitFor(() => expect(location.pathname).toBe("/signup"));
  });

  // After the gating tests: by then /home and /settings are compiled.
  it("home links to settings", { timeout: 20_000 }, async () => {
    signIn("verified");
    const { location } = renderApp("/home");
    (await screen.findByRole("link", { name: "Settings" }, { timeout: 5_000 })).click();
    expect(await screen.findByRole("heading", { level: 1, name: /^settings$/i }, { timeout: 5_000 })).toBeTruthy();
    expect(location.pathname).toBe("/settings");
  });

  it("logout on /home ends the session and opens /login", async () => {
    signIn("verified");
    const revoked: unknown[] = [];
    server.use(
      trpcHandler({
        ...defaultTrpcResolvers,
        "auth.logout": ({ input }) => {
          revoked.push(input);
          return { ok: true };
        },
      }),
    );
    const { location } = renderApp("/home");
    const logout = await screen.findByRole("button", { name: "Logout" });
    logout.click();
    expect(await screen.findByRole("heading", { level: 1, name: /^log in$/i })).toBeTruthy();
    expect(location.pathname).toBe("/login");
    // Logging out is no missing token: the student knows why they are at /login.
    expect(screen.queryByText(TOASTS.noToken)).toBeNull();
    const { useSessionStore } = await import("../lib/session-store");
    expect(useSessionStore.getState().token).toBeNull();
    await waitFor(() => expect(revoked).toEqual([{ refreshToken: "refresh-token-1" }]));
  });
});
