import { takeInstallPrompt } from "./install-capture";

export { installPromptReady, onInstallPromptChange } from "./install-capture";

interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** Shows the browser's install dialog (once per event); true when the student installed. */
export async function promptInstall(): Promise<boolean> {
  const event = takeInstallPrompt() as InstallPromptEvent | null;
  if (!event) return false;
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
