import type { AuditTrail as AuditTrailShape } from "@quad/contracts";
import type { z } from "zod";
import { Icon, Spinner, type IconName } from "../../components";
import { exactTime, timeAgo } from "../../lib/time-ago";
import { ADMIN_TEXT, AUDIT_ACTION_LABELS, shortId } from "./texts";
import styles from "./admin.module.css";

type AuditEntry = z.infer<typeof AuditTrailShape>["entries"][number];

const ACTION_ICONS: Record<AuditEntry["action"], IconName> = {
  restore: "check",
  remove_profile: "userX",
  remove_photo: "imageOff",
  grant_admin: "shield",
};

/** The audit log: what was done, to whom, by which admin, when. */
export function AuditTrail({ entries }: { entries: AuditEntry[] | undefined }) {
  if (!entries) return <Spinner size="md" label="Loading the audit trail" />;
  if (entries.length === 0) return <p className={styles.muted}>{ADMIN_TEXT.auditEmpty}</p>;
  return (
    <ol className={styles.audit}>
      {entries.map((entry, index) => (
        <li key={`${entry.at}:${index}`} className={styles.entry}>
          <span
            className={`${styles.entryIcon} ${entry.action.startsWith("remove") ? styles.entryIconDanger : ""}`}
            aria-hidden="true"
          >
            <Icon name={ACTION_ICONS[entry.action]} size={16} />
          </span>
          <div className={styles.entryText}>
            <p className={styles.entryAction}>
              {AUDIT_ACTION_LABELS[entry.action]}
              {entry.targetUserId && (
                <>
                  {" "}
                  <code className={styles.id} title={entry.targetUserId}>
                    {shortId(entry.targetUserId)}
                  </code>
                </>
              )}
            </p>
            <p className={styles.entryMeta}>
              {entry.adminId ? (
                <span title={entry.adminId}>{ADMIN_TEXT.byAdmin(entry.adminId)}</span>
              ) : (
                ADMIN_TEXT.byCli
              )}
            </p>
          </div>
          <time className={styles.when} dateTime={entry.at} title={exactTime(entry.at)}>
            {timeAgo(entry.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
