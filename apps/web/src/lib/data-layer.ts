import type { QueryClient } from "@tanstack/react-query";
import { createRestClient, type RestClient } from "./rest-client";
import { createQueryClient, createTrpcClient, type TrpcClient } from "./trpc";
import { handleUnauthorized } from "./unauthorized";

/**
 * The app's one query cache and API clients. Created on first use, so the
 * whole data layer (TanStack Query, tRPC) stays out of the first page's
 * bundle and loads with the first screen that talks to the server.
 */
export interface DataLayer {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  restClient: RestClient;
}

let dataLayer: DataLayer | null = null;

export function getDataLayer(): DataLayer {
  dataLayer ??= {
    queryClient: createQueryClient(),
    trpcClient: createTrpcClient({ onUnauthorized: handleUnauthorized }),
    restClient: createRestClient({ onUnauthorized: handleUnauthorized }),
  };
  return dataLayer;
}

/** Drops cached server data (sign-out, tests). */
export function clearServerCache(): void {
  dataLayer?.queryClient.clear();
}
