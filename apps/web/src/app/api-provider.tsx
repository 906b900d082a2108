import { QueryClientProvider } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { getDataLayer } from "../lib/data-layer";
import type { RestClient } from "../lib/rest-client";
import { trpc } from "../lib/trpc";

const RestClientContext = createContext<RestClient | null>(null);

/** Provides the tRPC hooks, TanStack Query and the REST client to the tree. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const { queryClient, trpcClient, restClient } = getDataLayer();
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <RestClientContext.Provider value={restClient}>{children}</RestClientContext.Provider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

/** The REST client for calls tRPC cannot carry (multipart uploads). */
export function useRestClient(): RestClient {
  const client = useContext(RestClientContext);
  if (!client) throw new Error("useRestClient must be used inside <ApiProvider>");
  return client;
}
