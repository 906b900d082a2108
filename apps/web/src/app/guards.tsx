import { Navigate, Outlet } from "react-router";
import { LoadingScreen } from "../components";
import { selectHasSession, selectIsVerified, useSessionReady, useSessionStore } from "../lib/session-store";

/**
 * Route gating of docs/product.md. Each guard waits for the session to be
 * restored, then either renders its child routes or redirects:
 * no session → /login, signed in but unverified → /signup, verified → /home.
 */

/** /home: a session and a verified profile. */
export function RequireVerified() {
  const ready = useSessionReady();
  const hasSession = useSessionStore(selectHasSession);
  const verified = useSessionStore(selectIsVerified);
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
