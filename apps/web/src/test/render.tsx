import { render } from "@testing-library/react";
import { MemoryRouter, useLocation, type RouteObject } from "react-router";
import type { MeUser } from "@quad/contracts";
import { App } from "../app/app";
import { getDataLayer } from "../lib/data-layer";
import { useSessionStore } from "../lib/session-store";
import { createMeUser, createTokens } from "./msw/fixtures";

export type SessionKind = "none" | "unverified" | "verified";

/** Signed in as `me`, as right after signing in: the tokens in the session, the profile in the query cache. */
export function signInAs(me: MeUser): void {
  const store = useSessionStore.getState();
  store.clear();
  store.startSession(createTokens());
  getDataLayer().utils.users.me.setData(undefined, me);
}

/** Puts the app's session in one of the three states the gating cares about. */
export function signIn(kind: SessionKind): void {
  if (kind === "none") {
    useSessionStore.getState().clear();
    return;
  }
  signInAs(
    kind === "verified"
      ? createMeUser()
      : createMeUser({ isVerified: false, profileImage: null, schoolLogo: null, schoolName: null }),
  );
}

/** The profile in the app's query cache (users.me), where screens read it. */
export function cachedProfile(): MeUser | undefined {
  return getDataLayer().utils.users.me.getData();
}

function LocationSpy({ into }: { into: { pathname: string } }) {
  // Written during render on purpose: tests read it after each commit.
  // eslint-disable-next-line react-hooks/immutability
  into.pathname = useLocation().pathname;
  return null;
}

/** Renders the whole app (real routes, gating and data layer) at `path` in a memory router. */
export function renderApp(path: string, options: { routes?: RouteObject[] } = {}) {
  const location = { pathname: path };
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <App routes={options.routes} />
      <LocationSpy into={location} />
    </MemoryRouter>,
  );
  return { ...view, location };
}
