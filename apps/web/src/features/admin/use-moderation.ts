import { errorCodeOf, isUnauthorizedError, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { SKIP_AUTH_REDIRECT, trpc } from "../../lib/trpc";
import { ADMIN_TEXT } from "./texts";

/**
 * The review queue and audit trail. The server answers NOT_FOUND to anyone
 * but an admin; the page then shows its 404, so `/admin` looks like any
 * missing route. A 401 is treated the same (no sign-in redirect from here).
 */
export function useModerationData() {
  const queue = trpc.admin.reviewQueue.useQuery(undefined, SKIP_AUTH_REDIRECT);
  // Asked only once the queue proved the caller an admin: others make one call.
  const audit = trpc.admin.auditTrail.useQuery(undefined, { ...SKIP_AUTH_REDIRECT, enabled: queue.isSuccess });
  const hidden = queue.isError && (errorCodeOf(queue.error) === "NOT_FOUND" || isUnauthorizedError(queue.error));
  return { queue, audit, hidden };
}

export type ModerationData = ReturnType<typeof useModerationData>;

export type ModerationAction = "restore" | "removeProfile" | "removePhoto";

const SUCCESS: Record<ModerationAction, (name: string) => string> = {
  restore: ADMIN_TEXT.restored,
  removeProfile: ADMIN_TEXT.profileRemoved,
  removePhoto: ADMIN_TEXT.photoRemoved,
};

/** The three moderation actions; the queue and the trail are fetched again after each (lib/refresh-after.ts). */
export function useModerationActions() {
  const restore = trpc.admin.restore.useMutation();
  const removeProfile = trpc.admin.removeProfile.useMutation();
  const removePhoto = trpc.admin.removePhoto.useMutation();
  const mutations = { restore, removeProfile, removePhoto };

  const run = async (action: ModerationAction, student: { userId: string; firstName: string }): Promise<boolean> => {
    try {
      await mutations[action].mutateAsync({ userId: student.userId });
      notify.success(SUCCESS[action](student.firstName || "The student"));
      return true;
    } catch (error) {
      notify.error(toUserMessage(error, ADMIN_TEXT.actionFailed));
      return false;
    }
  };

  /** The student whose action is in flight, and which action. */
  const pending = (Object.keys(mutations) as ModerationAction[]).flatMap((action) => {
    const mutation = mutations[action];
    return mutation.isPending && mutation.variables ? [{ action, userId: mutation.variables.userId }] : [];
  })[0];

  return { run, pending };
}
