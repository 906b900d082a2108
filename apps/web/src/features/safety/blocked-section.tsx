import { TOASTS } from "@quad/contracts";
import { Button, Icon, Spinner } from "../../components";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import sectionText from "../settings/section-text.module.css";
import styles from "./blocked-section.module.css";
import { SAFETY_TEXT } from "./texts";

/** The students this student blocked, each with Unblock. */
export function BlockedSection() {
  const blocks = trpc.safety.blocks.useQuery();
  const unblock = trpc.safety.unblock.useMutation({
    onError: (error) => notify.error(toUserMessage(error, TOASTS.processRequestFailed)),
  });

  if (blocks.isPending) return <Spinner label="Loading blocked students" />;
  if (blocks.isError) return <p className={sectionText.muted}>{TOASTS.processRequestFailed}</p>;
  if (blocks.data.blocked.length === 0) return <p className={sectionText.muted}>{SAFETY_TEXT.noBlocks}</p>;

  return (
    <ul className={styles.people}>
      {blocks.data.blocked.map((student) => (
        <li key={student.userId} className={styles.person}>
          <span className={styles.personPhoto}>
            {student.photo ? <img src={student.photo} alt="" /> : <Icon name="person" size={20} />}
          </span>
          <span className={styles.personName}>{student.firstName}</span>
          <Button
            variant="secondary"
            loading={unblock.isPending && unblock.variables.userId === student.userId}
            disabled={unblock.isPending}
            onClick={() =>
              unblock.mutate(
                { userId: student.userId },
                {
                  onSuccess: () => notify.success(SAFETY_TEXT.unblocked(student.firstName)),
                },
              )
            }
          >
            Unblock
          </Button>
        </li>
      ))}
    </ul>
  );
}
