import { TOASTS, type MeUser } from "@quad/contracts";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { useSessionStore } from "../lib/session-store";
import {
  createMeUser,
  createTokens,
  defaultTrpcResolvers,
  inTurn,
  roundsAnswers,
  server,
  trpcError,
  trpcHandler,
} from "../test/msw";
import { renderApp } from "../test/render";

/** After a reload: the session restored from storage, nothing in the query cache yet. */
function reloadedSession() {
  useSessionStore.getState().startSession(createTokens());
  useSessionStore.getState().setVerified(true);
}

const home = () => screen.findByRole("heading", { level: 1, name: "Hey Avery" }, { timeout: 5_000 });

describe("the signed-in screens after a reload", { timeout: 20_000 }, () => {
  it("show the loading screen until the profile comes, then the profile", async () => {
    const backend = roundsAnswers();
    let answer: (me: MeUser) => void = () => undefined;
    const profile = new Promise<MeUser>((resolve) => (answer = resolve));
    server.use(trpcHandler({ ...defaultTrpcResolvers, ...backend.resolvers, "users.me": () => profile }));
    reloadedSession();
    renderApp("/home");
    expect(await screen.findByText("Loading your profile", undefined, { timeout: 5_000 })).toBeTruthy();
    answer(backend.me);
    expect(await home()).toBeTruthy();
  });

  it("offer to ask again when the profile cannot be loaded", async () => {
    const me = createMeUser();
    const fails = trpcError("INTERNAL_SERVER_ERROR", "Unavailable");
    // The first try and the two retries fail; asking again succeeds.
    server.use(trpcHandler({ ...defaultTrpcResolvers, "users.me": inTurn(fails, fails, fails, me) }));
    reloadedSession();
    renderApp("/settings");
    expect(await screen.findByText(TOASTS.fetchUserFailed, undefined, { timeout: 10_000 })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeTruthy();
  });

  it("end the session when the server no longer knows it (401)", async () => {
    server.use(trpcHandler({ ...defaultTrpcResolvers, "users.me": () => trpcError("UNAUTHORIZED", "Log in") }));
    reloadedSession();
    const { location } = renderApp("/home");
    expect(await screen.findByRole("heading", { level: 1, name: /^log in$/i }, { timeout: 5_000 })).toBeTruthy();
    expect(location.pathname).toBe("/login");
    expect(useSessionStore.getState().token).toBeNull();
  });
});
