import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { createPortal } from "react-dom";
import { holdHistoryEntry } from "./dialog-history";
import styles from "./modal.module.css";

export interface ModalProps {
  open: boolean;
  /** Escape, the close button and a tap on the backdrop call this. */
  onClose: () => void;
  title: ReactNode;
  /** Optional line under the title, also used as the dialog's description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons pinned under the content. */
  footer?: ReactNode;
  /** Hide the × button (e.g. while a payment is in flight). */
  hideCloseButton?: boolean;
  /** Keep the dialog open on Escape and backdrop taps. */
  dismissible?: boolean;
  size?: "sm" | "md" | "lg";
  /** The element to focus first; defaults to the first focusable one. */
  initialFocusRef?: RefObject<HTMLElement | null>;
}

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "iframe",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/**
 * Open dialogs, oldest first. Dialogs may stack (a confirmation over a list);
 * only the top one answers Escape and traps Tab.
 */
const openDialogs: HTMLElement[] = [];
/** The page's overflow style before the first dialog opened, restored when the last one closes. */
let pageOverflow = "";
/** What the dialogs made inert, so only that is given back. */
const madeInert = new Set<Element>();

/**
 * While a dialog is open, everything behind it is inert: the page, and the
 * dialogs under the top one. Elements marked `data-over-dialogs` (the
 * toasts) stay live.
 */
function updateInert(): void {
  const top = openDialogs[openDialogs.length - 1]?.closest("[data-dialog-layer]");
  for (const element of Array.from(madeInert)) {
    element.removeAttribute("inert");
    madeInert.delete(element);
  }
  if (!top) return;
  for (const element of Array.from(document.body.children)) {
    if (element === top || element.hasAttribute("data-over-dialogs") || element.hasAttribute("inert")) continue;
    if (
      element instanceof HTMLScriptElement ||
      element instanceof HTMLStyleElement ||
      element instanceof HTMLLinkElement
    )
      continue;
    element.setAttribute("inert", "");
    madeInert.add(element);
  }
}

/**
 * A dialog's body that scrolls can be reached with Tab (tabindex 0), so the
 * keyboard can scroll it; one that fits is not a stop.
 */
function useScrollableFocusable(
  open: boolean,
  body: RefObject<HTMLDivElement | null>,
  content: RefObject<HTMLDivElement | null>,
) {
  useEffect(() => {
    const scroller = body.current;
    const inner = content.current;
    if (!open || !scroller || !inner || typeof ResizeObserver === "undefined") return;
    const update = () => {
      if (scroller.scrollHeight > scroller.clientHeight + 1) scroller.setAttribute("tabindex", "0");
      else scroller.removeAttribute("tabindex");
    };
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    observer.observe(inner);
    update();
    return () => observer.disconnect();
  }, [open, body, content]);
}

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute("inert"));
}

/**
 * An accessible dialog: rendered over the page in a portal, focus moves in and
 * stays in (Tab wraps), Escape closes, the page behind does not scroll and is
 * inert, the browser's Back closes it (see dialog-history.ts), and focus
 * returns to where it was when the dialog closes.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  hideCloseButton = false,
  dismissible = true,
  size = "md",
  initialFocusRef,
}: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  useScrollableFocusable(open, bodyRef, contentRef);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  useEffect(() => {
    onCloseRef.current = onClose;
    dismissibleRef.current = dismissible;
  }, [onClose, dismissible]);

  useEffect(() => {
    if (!open) return;
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (openDialogs.length === 0) {
      pageOverflow = document.body.style.overflow;
      document.body.style.overflow = "hidden";
    }

    openDialogs.push(dialog);
    updateInert();
    const releaseHistoryEntry = holdHistoryEntry({
      close: () => onCloseRef.current(),
      dismissible: () => dismissibleRef.current,
    });
    const first = initialFocusRef?.current ?? focusableIn(dialog)[0] ?? dialog;
    first.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.key === "Escape" && dismissibleRef.current) {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== "Tab") return;
      const items = focusableIn(dialog);
      if (items.length === 0) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || !dialog.contains(active))) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && (active === lastItem || !dialog.contains(active))) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown, true);

    return () => {
      document.removeEventListener("keydown", onKeyDown, true);
      const index = openDialogs.indexOf(dialog);
      if (index !== -1) openDialogs.splice(index, 1);
      updateInert();
      releaseHistoryEntry();
      if (openDialogs.length === 0) document.body.style.overflow = pageOverflow;
      previouslyFocused?.focus();
    };
    // Focus moves in once per opening; toggling `dismissible` (e.g. while paying) must not move it.
  }, [open, initialFocusRef]);

  // Not rendered when prerendering a page (no document): dialogs appear once the app runs.
  if (!open || typeof document === "undefined") return null;

  return createPortal(
    <div className={styles.layer} data-dialog-layer="">
      <div
        className={styles.backdrop}
        aria-hidden="true"
        onClick={dismissible ? () => onCloseRef.current() : undefined}
      />
      <div
        ref={dialogRef}
        className={`${styles.dialog} ${styles[size]}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        {/* Not <header>/<footer>: at the top of the page those would be a second banner and contentinfo. */}
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {!hideCloseButton && (
            <button type="button" className={styles.close} onClick={() => onCloseRef.current()} aria-label="Close">
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
              </svg>
            </button>
          )}
        </div>
        {description && (
          <p id={descriptionId} className={styles.description}>
            {description}
          </p>
        )}
        {children && (
          <div ref={bodyRef} className={styles.body}>
            <div ref={contentRef}>{children}</div>
          </div>
        )}
        {footer && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
