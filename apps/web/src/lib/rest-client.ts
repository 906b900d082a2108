import type { ApiErrorBody, HttpMethod } from "@quad/contracts";
import { getAccessToken } from "./access-token";
import { ApiError } from "./api-error";
import { apiUrl, fetchWithTimeout } from "./http";
import { useSessionStore, type SessionStore } from "./session-store";

export interface RestRequest {
  method?: HttpMethod;
  /** JSON-encoded, or sent as it is when it is FormData (multipart uploads). */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** A 401 from this call does not sign the student out (docs/product.md). */
  skipAuthRedirect?: boolean;
}

export interface RestClient {
  /** Calls `path` below /api (as in contracts' route table) and returns the JSON answer. */
  request<T>(path: string, request?: RestRequest): Promise<T>;
}

export interface RestClientOptions {
  onUnauthorized: () => void;
  /** Called with a write's route ("PATCH /users/update") and answer before its caller sees it, and waited for. */
  afterWrite?: (route: string, output: unknown) => Promise<void>;
  store?: SessionStore;
}

/**
 * For the few calls tRPC cannot carry (the multipart profile update). Same
 * rules as the tRPC client: bearer token, 100 s timeout, global 401 handler.
 */
export function createRestClient({
  onUnauthorized,
  afterWrite,
  store = useSessionStore,
}: RestClientOptions): RestClient {
  return {
    async request<T>(
      path: string,
      { method = "GET", body, query, signal, skipAuthRedirect = false }: RestRequest = {},
    ) {
      const url = new URL(apiUrl(`/api${path}`));
      for (const [key, value] of Object.entries(query ?? {})) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
      const headers = new Headers({ Accept: "application/json" });
      const token = await getAccessToken(store);
      if (token) headers.set("Authorization", `Bearer ${token}`);
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers.set("Content-Type", "application/json");
        payload = JSON.stringify(body);
      }

      const response = await fetchWithTimeout(url, { method, headers, body: payload, signal });
      const json: unknown = await response.json().catch(() => null);
      if (response.ok) {
        if (method !== "GET") await afterWrite?.(`${method} ${path}`, json);
        return json as T;
      }

      const error = new ApiError(response.status, asApiErrorBody(json));
      if (response.status === 401 && !skipAuthRedirect) onUnauthorized();
      throw error;
    },
  };
}

/** The server's `{message, code, fieldErrors?}` error body, or null for anything else (a proxy's HTML page). */
function asApiErrorBody(json: unknown): ApiErrorBody | null {
  if (typeof json !== "object" || json === null) return null;
  const { message, code } = json as Record<string, unknown>;
  return typeof message === "string" && typeof code === "string" ? (json as ApiErrorBody) : null;
}
