/**
 * Registers the service worker (apps/web/sw) once the page has loaded, so it
 * never competes with the first screen for the network. A click on a vote
 * notice while Quad is open arrives here as a message naming the page to show;
 * the router follows history changes, so a pushState and a popstate take it there.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<{ type?: string; path?: string }>) => {
    const path = event.data?.path;
    if (event.data?.type !== "quad:open" || typeof path !== "string" || !path.startsWith("/")) return;
    window.history.pushState(null, "", path);
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  const register = () => void navigator.serviceWorker.register("/service-worker.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
