import { render } from "@testing-library/react";
import { MemoryRouter, useLocation, type RouteObject } from "react-router";
import { App } from "../app/app";
import { useSessionStore } from "../lib/session-store";
import { createMeUser, createTokens } from "./msw/fixtures";

export type SessionKind = "none" | "unverified" | "verified";

/** Puts the app's session store in one of the three states the gating cares about. */
export function signIn(kind: SessionKind): void {
  const store = useSessionStore.getState();
  store.clear();
  if (kind === "none") return;
  store.setTokens(createTokens());
  store.setUser(
    kind === "verified"
      ? createMeUser()
      : createMeUser({ isVerified: false, profileImage: null, schoolLogo: null, schoolName: null }),
  );
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
