import { TOASTS, type MeUser } from "@quad/contracts";
import { Button, Icon } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { ACCOUNT_TEXT } from "./texts";
import styles from "./account.module.css";

/**
 * Home while the profile is paused: says so, and undoes it in one tap (the
 * answered profile replaces the cached one, so the notice goes away). A
 * profile held for review cannot be resumed by its student: no notice then,
 * Settings says why.
 */
export function PausedNotice({ user }: { user: MeUser }) {
  const resume = trpc.account.pause.useMutation({
    onSuccess: () => notify.success(ACCOUNT_TEXT.resumedToast),
    onError: (error) => notify.error(toUserMessage(error, TOASTS.processRequestFailed)),
  });
  if (!user.paused || user.heldForReview) return null;
  return (
    <section className={styles.pausedNotice} aria-label={ACCOUNT_TEXT.pausedNoticeTitle}>
      <Icon name="pause" size={20} className={styles.pausedIcon} />
      <div className={styles.pausedText}>
        <p className={styles.pausedTitle}>{ACCOUNT_TEXT.pausedNoticeTitle}</p>
        <p>{ACCOUNT_TEXT.pausedNoticeBody}</p>
        <p>{ACCOUNT_TEXT.pausedNoticeHow}</p>
      </div>
      <Button variant="secondary" loading={resume.isPending} onClick={() => resume.mutate({ paused: false })}>
        {ACCOUNT_TEXT.resume}
      </Button>
    </section>
  );
}
