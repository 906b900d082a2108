import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from "react";
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
  /** The element to focus first; the browser's choice is the first focusable one. */
  initialFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * Moves the element marked `data-over-dialogs` (the toasts) into the top open
 * dialog, or back to the page when none is open: a modal dialog makes
 * everything outside it inert and draws over it, so inside is the one place a
 * toast stays visible and live. Dialogs are appended to the body as they
 * open, so the last open one is the top one.
 */
export function placeOverDialogs(): void {
  const rider = document.querySelector("[data-over-dialogs]");
  if (!rider) return;
  const open = document.querySelectorAll("body > dialog[open]");
  const top = open[open.length - 1] ?? document.body;
  if (rider.parentElement !== top) top.append(rider);
}

/**
 * A dialog's body that scrolls can be reached with Tab (tabindex 0), so the
 * keyboard can scroll it; one that fits is not a stop.
 */
function useScrollableFocusable(body: RefObject<HTMLDivElement | null>, content: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const scroller = body.current;
    const inner = content.current;
    if (!scroller || !inner || typeof ResizeObserver === "undefined") return;
    const update = () => {
      if (scroller.scrollHeight > scroller.clientHeight + 1) scroller.setAttribute("tabindex", "0");
      else scroller.removeAttribute("tabindex");
    };
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    observer.observe(inner);
    update();
    return () => observer.disconnect();
  }, [body, content]);
}

/**
 * An accessible dialog on the browser's modal `<dialog>`: `showModal()` puts it
 * in the top layer, moves focus in, makes the page (and a dialog under it)
 * inert so neither Tab nor a tap reaches it, and turns Escape into a `cancel`
 * event; closing gives focus back. This adds the browser's Back closing it (see
 * dialog-history.ts), the page not scrolling behind it (modal.module.css),
 * and a dialog that may not be dismissed now staying open.
 */
export function Modal(props: ModalProps) {
  // Not rendered when prerendering a page (no document): dialogs appear once the app runs.
  if (!props.open || typeof document === "undefined") return null;
  return createPortal(<OpenDialog {...props} />, document.body);
}

/**
 * Mounted while open. Inside the portal, so its layout effect's cleanup runs
 * before React takes the `<dialog>` out of the page: closing it there lets
 * the browser give focus back.
 */
function OpenDialog({
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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  useScrollableFocusable(bodyRef, contentRef);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  useEffect(() => {
    onCloseRef.current = onClose;
    dismissibleRef.current = dismissible;
  }, [onClose, dismissible]);

  useLayoutEffect(() => {
    const dialog = dialogRef.current!;
    dialog.showModal();
    initialFocusRef?.current?.focus();
    placeOverDialogs();
    const releaseHistoryEntry = holdHistoryEntry({
      close: () => onCloseRef.current(),
      dismissible: () => dismissibleRef.current,
    });
    const onCancel = (event: Event) => {
      if (!dismissibleRef.current) event.preventDefault();
    };
    // Escape closed it (or a cancel the browser would not let us refuse): tell the owner, or reopen one that must stay.
    const onClosed = () => {
      if (dialog.open) return; // A close from before it was reopened (StrictMode's remount).
      if (dismissibleRef.current) onCloseRef.current();
      else dialog.showModal();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onClosed);

    return () => {
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onClosed);
      dialog.close();
      placeOverDialogs();
      releaseHistoryEntry();
    };
    // Once per opening: a ref that changes later must not move focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={styles.layer}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
    >
      <div
        className={styles.backdrop}
        aria-hidden="true"
        onClick={dismissible ? () => onCloseRef.current() : undefined}
      />
      <div className={`${styles.dialog} ${styles[size]}`}>
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
    </dialog>
  );
}
