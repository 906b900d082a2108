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

function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  void import("react-toastify/unstyled").then(({ toast }) => toast[kind](message, options));
}

export const notify = {
  success: (message: string, options?: ToastOptions) => show("success", message, options),
  error: (message: string, options?: ToastOptions) => show("error", message, options),
  info: (message: string, options?: ToastOptions) => show("info", message, options),
  warning: (message: string, options?: ToastOptions) => show("warning", message, options),
};
