import { useEffect, useRef } from "react";
import { Navigate, Outlet } from "react-router";
import { LoadingScreen } from "../components";
import { selectHasSession, selectIsVerified, useSessionReady, useSessionStore } from "../lib/session-store";

/**
 * Route gating of docs/product.md. Each guard waits for the session to be
 * restored, then either renders its child routes or redirects:
 * no session → /login, signed in but unverified → /signup, verified → /home.
 */

/**
 * Arriving at a signed-in screen without a session: "No token found. Please
 * log in." on the way to /login, with a sentence more when what was stored
 * could not be read. A session that ends here (Logout, a 401) goes to /login
 * without it, except a stored token refused at once: the 401 handler explains that.
 */
function useNoTokenToast(ready: boolean, hasSession: boolean) {
  // Decided once, at the first look at a restored session.
  const decided = useRef(false);
  useEffect(() => {
    if (!ready || decided.current) return;
    decided.current = true;
    if (hasSession) return;
    // A stored entry that was no session says so, under the same words.
    const spoiled = useSessionStore.getState().restoredSpoiled;
    // Loaded only when said: the guards ship with the first page.
    void import("./no-token-toast").then((m) => (spoiled ? m.saySpoiledSession() : m.sayNoToken()));
  }, [ready, hasSession]);
}

/** /home: a session and a verified profile. */
export function RequireVerified() {
  const ready = useSessionReady();
  const hasSession = useSessionStore(selectHasSession);
  const verified = useSessionStore(selectIsVerified);
  useNoTokenToast(ready, hasSession);
  if (!ready) return <LoadingScreen />;
  if (!hasSession) return <Navigate to="/login" replace />;
  if (!verified) return <Navigate to="/signup" replace />;
  return <Outlet />;
}

/** /login, /signup, /opt-in: anyone not yet verified. */
export function RequireNotVerified() {
  const ready = useSessionReady();
  const verified = useSessionStore(selectIsVerified);
  if (!ready) return <LoadingScreen />;
  if (verified) return <Navigate to="/home" replace />;
  return <Outlet />;
}

/**
 * /: visitors see the landing. Signed-in students are sent on (docs/product.md):
 * verified ones to /home, unverified ones to finish their profile at /signup
 * (where /home would send them anyway).
 */
export function RedirectSignedIn() {
  const ready = useSessionReady();
  const hasSession = useSessionStore(selectHasSession);
  const verified = useSessionStore(selectIsVerified);
  if (!ready) return <LoadingScreen />;
  if (verified) return <Navigate to="/home" replace />;
  if (hasSession) return <Navigate to="/signup" replace />;
  return <Outlet />;
}
