import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { useSessionStore } from "../../lib/session-store";
import { SKIP_AUTH_REDIRECT, trpc } from "../../lib/trpc";
import { forgetThisDevicesPush } from "../push/push-device";

/**
 * Logs out (docs/product.md "Signing up and signing in"): forgets the session on this device at
 * once and goes to /login, then revokes the refresh token on the server as
 * a best effort (being offline must not keep anyone signed in). This device
 * stops getting the student's vote notifications.
 */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { client } = trpc.useUtils();

  return useCallback(() => {
    const { refreshToken, clear } = useSessionStore.getState();
    clear();
    void navigate("/login", { replace: true });
    queryClient.clear();
    forgetThisDevicesPush();
    if (refreshToken) {
      client.auth.logout.mutate({ refreshToken }, SKIP_AUTH_REDIRECT.trpc).catch(() => undefined);
    }
  }, [navigate, queryClient, client]);
}
