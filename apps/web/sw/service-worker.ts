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
 * - answers navigations with the cached shell, with no network round trip
 *   before the app runs, and refreshes it behind (docs/decisions/0037-the-app-shell-from-the-cache.md);
 *   a new deployment installs beside it and takes over once no Quad tab runs
 *   the old one;
 * - shows vote notices pushed by the server and opens Quad on a click.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** The page a notice opens when its payload names none. */
const VOTES_PAGE = "/home?votes=1";

/** The shells as the server last sent them, headers included: its CSP follows its settings, not the build. */
const SHELL_CACHE = "quad-shell";

// A new build waits (no skipWaiting) until no tab runs the old one: an open page keeps the shell and lazy
// chunks it started with, which activation deletes. Then the shells fetched meanwhile go too (they may name
// the old build's chunks), and its own precached ones serve. The first install claims the page.
self.addEventListener("activate", (event) =>
  event.waitUntil(Promise.all([caches.delete(SHELL_CACHE), self.clients.claim()])),
);

/**
 * A navigation gets the cached shell at once ("/" the prerendered landing, every other route the plain
 * shell, as the server answers them) and the server's copy is fetched behind it for the next visit: no
 * round trip before the app runs, and the server's changes one visit late.
 */
async function shell({
  request,
  url,
  event,
}: {
  request: Request;
  url: URL;
  event: ExtendableEvent;
}): Promise<Response> {
  const file = url.pathname === "/" ? "/index.html" : "/app.html";
  const cache = await caches.open(SHELL_CACHE);
  const fresh = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(file, response.clone());
    return response;
  });
  event.waitUntil(fresh.catch(() => undefined));
  const cached = (await cache.match(file)) ?? (await matchPrecache(file)) ?? (await matchPrecache("/app.html"));
  return cached ?? fresh.catch(() => Response.error());
}
// Before the precache's own route, which would answer "/" from the cache. Not the API, nor a file
// (a name with an extension: robots.txt, an image), which the server answers itself.
registerRoute(new NavigationRoute(shell, { denylist: [/^\/api(\/|$)/, /\/[^/]+\.[^/]+$/] }));
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
