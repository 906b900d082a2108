import { useEffect } from "react";
import { Outlet, useNavigate } from "react-router";
import { clearServerCache } from "../lib/data-layer";
import { useSessionStore } from "../lib/session-store";
import { setUnauthorizedHandler } from "../lib/unauthorized";
import { ApiProvider } from "./api-provider";

/**
 * Layout route for every screen that talks to the server (lazy-loaded, so
 * the data layer is fetched with the first such screen). Registers the
 * global 401 handler: end the session and go to /login (docs/product.md).
 */
export function ApiLayout() {
  const navigate = useNavigate();

  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        // The student did nothing to end this session: they are told what happened.
        if (useSessionStore.getState().restoredSpoiled) {
          void import("./no-token-toast").then((m) => m.saySpoiledSession());
        }
        useSessionStore.getState().clear();
        void navigate("/login", { replace: true });
        clearServerCache();
      }),
    [navigate],
  );

  return (
    <ApiProvider>
      <Outlet />
    </ApiProvider>
  );
}
