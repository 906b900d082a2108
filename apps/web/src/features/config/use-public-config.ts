import { trpc } from "../../lib/trpc";

/**
 * The server's public configuration (config.public: the payment provider and
 * Stripe key, the VAPID key push subscribes with); it never changes while the page lives.
 */
export function usePublicConfig() {
  return trpc.config.public.useQuery(undefined, { staleTime: Infinity, gcTime: Infinity });
}
