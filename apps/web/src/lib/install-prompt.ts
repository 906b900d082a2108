/**
 * Chromium's install offer: `beforeinstallprompt` fires once, early, and the
 * page keeps the event to show the browser's dialog later on a tap. The
 * listener is added at start (main.tsx) so the event is not missed while a
 * screen's code is still loading.
 */
interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export function captureInstallPrompt(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    changed();
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    changed();
  });
}

export const installPromptReady = () => deferred !== null;

export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's install dialog (once per event); true when the student installed. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred;
  if (!event) return false;
  deferred = null;
  changed();
  await event.prompt();
  return (await event.userChoice).outcome === "accepted";
}

/** iOS Safari in a tab: it has no install event, so the offer is the Add to Home Screen steps. */
export function isIosSafariTab(nav: Navigator = navigator, standalone = isStandalone()): boolean {
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1);
  // Other iOS browsers (CriOS, FxiOS, EdgiOS) cannot add to the Home Screen from their own menu the same way.
  const safari = /Safari/.test(nav.userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(nav.userAgent);
  return ios && safari && !standalone;
}

function isStandalone(): boolean {
  const safariFlag = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return (
    safariFlag || (typeof window.matchMedia === "function" && window.matchMedia("(display-mode: standalone)").matches)
  );
}
