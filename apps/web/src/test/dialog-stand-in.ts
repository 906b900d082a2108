/*
 * jsdom has the <dialog> element but none of its modal behaviour. This stands
 * in for the part the Modal takes from browsers (the browser tests run the
 * real one in Chromium): showModal() opens the dialog and focuses its first
 * focusable element, Escape sends the top open dialog a cancelable `cancel`
 * and closes it unless that is refused, and close() gives focus back and
 * fires `close`. Focus trapping and the inert page are left to the browser
 * tests.
 */

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

const focusedBefore = new WeakMap<HTMLDialogElement, Element | null>();

export function installDialogStandIn(): void {
  if (typeof HTMLDialogElement.prototype.showModal === "function") return;

  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    if (this.open) return;
    focusedBefore.set(this, document.activeElement);
    this.setAttribute("open", "");
    this.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  };

  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    const before = focusedBefore.get(this);
    if (before instanceof HTMLElement) before.focus();
    this.dispatchEvent(new Event("close"));
  };

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    const open = document.querySelectorAll<HTMLDialogElement>("dialog[open]");
    const top = open[open.length - 1];
    if (top?.dispatchEvent(new Event("cancel", { cancelable: true }))) top.close();
  });
}
