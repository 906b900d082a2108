import { useSessionStore } from "./session-store";

/**
 * The global 401 handler of docs/product.md. The API clients call
 * `handleUnauthorized()`; the app registers what it means (clear the session,
 * go to /login) from inside the router, where navigation is available.
 */
type Handler = () => void;

let current: Handler | null = null;

/** Registers the handler; returns a function that unregisters it. */
export function setUnauthorizedHandler(handler: Handler): () => void {
  current = handler;
  return () => {
    if (current === handler) current = null;
  };
}

export function handleUnauthorized(): void {
  // A token from storage refused before it was ever renewed: a spoiled session, which the student is told of.
  if (useSessionStore.getState().restoredUnchecked) {
    useSessionStore.setState({ restoredSpoiled: true, restoredUnchecked: false });
  }
  if (current) current();
  // Nobody mounted to navigate: at least end the session, the guards do the rest.
  else useSessionStore.getState().clear();
}
