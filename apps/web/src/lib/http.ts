import { API_TIMEOUT_MS } from "@quad/contracts";

/** Where the server mounts tRPC. */
export const TRPC_PATH = "/api/trpc";

/** Absolute URL of an API path on this origin (the dev server proxies /api). */
export function apiUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/**
 * A signal that aborts when `signal` does or after `timeoutMs`, whichever
 * comes first (docs/product.md: every call gives up after 100 s).
 */
export function withTimeout(signal: AbortSignal | null | undefined, timeoutMs: number = API_TIMEOUT_MS): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!signal) return timeout;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([signal, timeout]);

  const controller = new AbortController();
  const forward = (source: AbortSignal) => () => controller.abort(source.reason);
  if (signal.aborted) controller.abort(signal.reason);
  signal.addEventListener("abort", forward(signal), { once: true });
  timeout.addEventListener("abort", forward(timeout), { once: true });
  return controller.signal;
}

/** `fetch` with the API timeout applied on top of any caller signal. */
export function fetchWithTimeout(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  return fetch(input, { ...init, signal: withTimeout(init.signal) });
}
