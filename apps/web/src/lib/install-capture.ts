/**
 * Chromium's install offer: `beforeinstallprompt` fires once, early, and the
 * page keeps the event to show the browser's dialog later on a tap. Added at
 * start (main.tsx), so the event is not missed while a screen's code loads;
 * kept this small because it ships with the first page. The rest is
 * install-prompt.ts.
 */
let deferred: Event | null = null;
const listeners = new Set<() => void>();
const set = (event: Event | null) => {
  deferred = event;
  listeners.forEach((listener) => listener());
};

export function captureInstallPrompt(): void {
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    set(event);
  });
  addEventListener("appinstalled", () => set(null));
}

export const installPromptReady = () => deferred !== null;

export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The kept event, once: a second prompt() on it would throw. */
export function takeInstallPrompt(): Event | null {
  const event = deferred;
  if (event) set(null);
  return event;
}
