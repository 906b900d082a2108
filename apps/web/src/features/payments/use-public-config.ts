import { trpc } from "../../lib/trpc";

/** The server's public configuration (payment provider, Stripe publishable key); it never changes while the page lives. */
export function usePublicConfig() {
  return trpc.config.public.useQuery(undefined, { staleTime: Infinity, gcTime: Infinity });
}
