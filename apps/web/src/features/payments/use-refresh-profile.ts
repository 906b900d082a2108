import { TOASTS, type MeUser } from "@quad/contracts";
import { useCallback } from "react";
import { useSaveProfile } from "../session/use-save-profile";
import { notify } from "../../lib/toast";
import { SKIP_AUTH_REDIRECT, trpc } from "../../lib/trpc";

/**
 * Reloads the student's profile after the server changed it (credits after a
 * purchase, the boost end) and writes it to the session store. A 401 here
 * does not sign out (docs/product.md, GET /users/me).
 */
export function useRefreshProfile(): () => Promise<MeUser | null> {
  const utils = trpc.useUtils();
  const saveProfile = useSaveProfile();
  return useCallback(async () => {
    try {
      const me = await utils.client.users.me.query(undefined, SKIP_AUTH_REDIRECT.trpc);
      saveProfile(me);
      return me;
    } catch {
      notify.error(TOASTS.fetchUserFailed);
      return null;
    }
  }, [utils, saveProfile]);
}
