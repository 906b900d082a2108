import { ERROR_MESSAGES, TOASTS, type MeUser } from "@quad/contracts";
import { Switch } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { ACCOUNT_TEXT } from "./texts";

/** Pause (no longer drawn as a candidate) and the opt-in to the public landing preview. */
export function PrivacySection({ user }: { user: MeUser }) {
  const failed = (error: unknown) => notify.error(toUserMessage(error, TOASTS.processRequestFailed));

  const setPaused = trpc.account.pause.useMutation({
    onSuccess: (me) => notify.success(me.paused ? ACCOUNT_TEXT.pausedToast : ACCOUNT_TEXT.resumedToast),
    onError: failed,
  });
  const setPreview = trpc.account.preview.useMutation({ onError: failed });

  return (
    <>
      <Switch
        label={ACCOUNT_TEXT.pauseTitle}
        description={user.heldForReview ? ERROR_MESSAGES.heldForReview : ACCOUNT_TEXT.pauseDescription}
        checked={user.paused}
        disabled={user.heldForReview}
        busy={setPaused.isPending}
        onChange={(paused) => setPaused.mutate({ paused })}
      />
      <Switch
        label={ACCOUNT_TEXT.previewTitle}
        description={ACCOUNT_TEXT.previewDescription}
        checked={user.showInPreview}
        busy={setPreview.isPending}
        onChange={(showInPreview) => setPreview.mutate({ showInPreview })}
      />
    </>
  );
}
