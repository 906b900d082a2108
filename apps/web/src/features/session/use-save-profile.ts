import type { MeUser } from "@quad/contracts";
import { useCallback } from "react";
import { useSessionStore } from "../../lib/session-store";
import { trpc } from "../../lib/trpc";

/**
 * Keeps a profile the server just answered in both places screens read it:
 * the session store and the cached users.me query. Writing only the store
 * lets /home's users.me cache put the old profile back on the next visit.
 */
export function useSaveProfile(): (me: MeUser) => void {
  const utils = trpc.useUtils();
  const setUser = useSessionStore((state) => state.setUser);
  return useCallback(
    (me: MeUser) => {
      setUser(me);
      utils.users.me.setData(undefined, me);
    },
    [setUser, utils],
  );
}
