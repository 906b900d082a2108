import { ERROR_MESSAGES, TOASTS, type MeUser } from "@quad/contracts";
import { Switch } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { SETTINGS_COPY } from "./copy";

/** Pause (no longer drawn as a candidate) and the opt-in to the public landing preview. */
export function PrivacySection({ user }: { user: MeUser }) {
  const failed = (error: unknown) => notify.error(toUserMessage(error, TOASTS.processRequestFailed));

  const setPaused = trpc.account.pause.useMutation({
    onSuccess: (me) => notify.success(me.paused ? SETTINGS_COPY.pausedToast : SETTINGS_COPY.resumedToast),
    onError: failed,
  });
  const setPreview = trpc.account.preview.useMutation({ onError: failed });

  return (
    <>
      <Switch
        label={SETTINGS_COPY.pauseTitle}
        description={user.heldForReview ? ERROR_MESSAGES.heldForReview : SETTINGS_COPY.pauseDescription}
        checked={user.paused}
        disabled={user.heldForReview}
        busy={setPaused.isPending}
        onChange={(paused) => setPaused.mutate({ paused })}
      />
      <Switch
        label={SETTINGS_COPY.previewTitle}
        description={SETTINGS_COPY.previewDescription}
        checked={user.showInPreview}
        busy={setPreview.isPending}
        onChange={(showInPreview) => setPreview.mutate({ showInPreview })}
      />
    </>
  );
}
