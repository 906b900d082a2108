import type { FlashSaleOffer } from "@quad/contracts";
import { useQuery } from "@tanstack/react-query";
import { getMutationKey } from "@trpc/react-query";
import { trpc } from "../../lib/trpc";

/** After the sale's end by the browser's clock: room for a clock a little ahead of the server's. */
const SALE_END_SLACK_MS = 1_000;

/**
 * The student's flash sale on one unlock, with its real end. Showing the
 * sale starts it on the server the first time (later calls return the same
 * end), so this runs only while a screen that offers it is open.
 */
export function useFlashSale(offered: boolean) {
  const utils = trpc.useUtils();
  return useQuery<FlashSaleOffer>({
    // Under the procedure's own key: it is a mutation read as a query.
    queryKey: getMutationKey(trpc.payments.flashSale),
    queryFn: () => utils.client.payments.flashSale.mutate(),
    enabled: offered,
    staleTime: 60_000,
    retry: false,
    // Asked again just after the sale's end, so an open dialog turns to the regular price by itself.
    refetchInterval: (query) => {
      const offer = query.state.data;
      return offer?.active ? Math.max(0, Date.parse(offer.endsAt) - Date.now()) + SALE_END_SLACK_MS : false;
    },
  });
}

/** "Ends 3:45 PM" today, "Ends Tue 3:45 PM" on another day: the sale's real end, in the viewer's time. */
export function formatSaleEnd(endsAt: string, now = new Date()): string {
  const end = new Date(endsAt);
  const time = end.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  const sameDay = end.toDateString() === now.toDateString();
  return sameDay ? `Ends ${time}` : `Ends ${end.toLocaleDateString(undefined, { weekday: "short" })} ${time}`;
}
