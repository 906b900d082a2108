/// <reference lib="WebWorker" />
import type { PushNotice } from "@quad/contracts";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

/**
 * Quad's service worker (docs/decisions/0018-web-push-and-the-service-worker.md):
 * - precaches the app shell and static assets (the list is injected after the
 *   build by scripts/precache.mjs), so Quad opens on a flaky network;
 * - never caches API answers: nothing under /api is routed here, so those
 *   requests go to the network as if there were no worker;
 * - takes navigations from the network first, so a new deployment is what the
 *   next visit gets, and falls back to the precached shell only when offline;
 * - shows vote notices pushed by the server and opens Quad on a click.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** The page a notice opens when its payload names none. */
const VOTES_PAGE = "/home?votes=1";
/** Past this, a navigation waits for no slow network: the cached shell shows and the app retries its calls. */
const NAVIGATION_TIMEOUT_MS = 4000;

// A new worker takes over at once: navigations come from the network anyway, so no page is stuck on an old build.
self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function navigate({ request }: { request: Request }): Promise<Response> {
  try {
    return await fetch(request, { signal: AbortSignal.timeout(NAVIGATION_TIMEOUT_MS) });
  } catch {
    const path = new URL(request.url).pathname;
    // "/" has the prerendered landing; every other route the plain shell, as the server answers them.
    const shell = (path === "/" && (await matchPrecache("/index.html"))) || (await matchPrecache("/app.html"));
    return shell ?? Response.error();
  }
}
// Before the precache's own route, which would answer "/" from the cache.
registerRoute(new NavigationRoute(navigate, { denylist: [/^\/api(\/|$)/] }));
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

function readNotice(data: PushMessageData | null): PushNotice | null {
  try {
    const notice = data?.json() as Partial<PushNotice> | undefined;
    return notice && typeof notice.title === "string" ? (notice as PushNotice) : null;
  } catch {
    return null;
  }
}

self.addEventListener("push", (event) => {
  const notice = readNotice(event.data);
  if (!notice) return;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      // One notice on screen at a time: a newer count replaces the older one.
      tag: "quad-votes",
      data: { url: notice.url },
    }),
  );
});

/** Opening a notice: an open Quad window is focused and shown the votes, else a new one opens on them. */
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = typeof event.notification.data?.url === "string" ? event.notification.data.url : VOTES_PAGE;
  const url = new URL(path, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === url.origin);
      if (open) {
        // The page moves first: focusing can be refused (no user activation) and must not stop it.
        open.postMessage({ type: "quad:open", path: url.pathname + url.search });
        await open.focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url.href);
    })(),
  );
});
