import type { ReactNode } from "react";
import type { ToastOptions } from "react-toastify/unstyled";

/**
 * Toasts without putting react-toastify in the first page's bundle: the
 * library loads on first use (and when <Toaster> mounts). Toasts raised
 * before the container is ready are queued by react-toastify and shown
 * as soon as it mounts. Screens that are lazy-loaded anyway may import
 * `toast` from react-toastify/unstyled directly (the build <Toaster> uses:
 * one store); first-page code should use this.
 */
type ToastKind = "success" | "error" | "info" | "warning";

/** Errors stay long enough to read twice; everything else is a short confirmation. */
const AUTO_CLOSE_MS: Record<ToastKind, number> = { success: 2500, info: 2500, warning: 4000, error: 4000 };

function show(kind: ToastKind, message: ReactNode, options?: ToastOptions): void {
  void import("react-toastify/unstyled").then(({ toast }) => {
    // One toast at a time: a new one describes a newer state, so what the last one said is over
    // ("Invalid verification code" goes once the right code is in; three votes, one "Vote sent").
    toast.dismiss();
    toast[kind](message, { autoClose: AUTO_CLOSE_MS[kind], ...options });
  });
}

export const notify = {
  /** Takes down the toast on screen once what it said is over (a photo that now has its preview). */
  dismiss: () => void import("react-toastify/unstyled").then(({ toast }) => toast.dismiss()),
  success: (message: ReactNode, options?: ToastOptions) => show("success", message, options),
  error: (message: ReactNode, options?: ToastOptions) => show("error", message, options),
  info: (message: ReactNode, options?: ToastOptions) => show("info", message, options),
  warning: (message: ReactNode, options?: ToastOptions) => show("warning", message, options),
};
