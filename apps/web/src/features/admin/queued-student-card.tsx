import { useId } from "react";
import type { ReviewQueue } from "@quad/contracts";
import { Button, Icon } from "../../components";
import { exactTime, timeAgo } from "../../lib/time-ago";
import { ADMIN_TEXT, shortId } from "./texts";
import type { ModerationAction } from "./use-moderation";
import styles from "./admin.module.css";

export type QueuedStudent = ReviewQueue["students"][number];

export interface QueuedStudentCardProps {
  student: QueuedStudent;
  /** The action in flight for this student, if any. */
  pending?: ModerationAction;
  /** Another student's action is in flight. */
  busy: boolean;
  onAction: (action: ModerationAction) => void;
}

/** One reported student: photo, name, school, hold, every open report with who filed it and when, and the three decisions. */
export function QueuedStudentCard({ student, pending, busy, onAction }: QueuedStudentCardProps) {
  const nameId = useId();
  const name = student.firstName || "—";
  const locked = busy || pending !== undefined;

  return (
    <article className={styles.student} aria-labelledby={nameId}>
      <div className={styles.studentHead}>
        <div className={styles.thumb}>
          {student.photo ? (
            <img src={student.photo} alt={`Photo of ${name}`} loading="lazy" decoding="async" />
          ) : (
            <span className={styles.noPhoto}>
              <Icon name="imageOff" size={22} />
              <span className="visually-hidden">{ADMIN_TEXT.noPhoto}</span>
            </span>
          )}
        </div>
        <div className={styles.who}>
          <div className={styles.nameRow}>
            <h3 id={nameId} className={styles.name}>
              {name}
            </h3>
            {student.urgentSince && (
              <span className={`${styles.badge} ${styles.urgentBadge}`}>
                <Icon name="alert" size={14} />
                <time dateTime={student.urgentSince} title={exactTime(student.urgentSince)}>
                  {ADMIN_TEXT.urgent(timeAgo(student.urgentSince))}
                </time>
              </span>
            )}
            {student.held && (
              <span className={`${styles.badge} ${styles.heldBadge}`}>
                <Icon name="clock" size={14} />
                {ADMIN_TEXT.held}
              </span>
            )}
          </div>
          <p className={styles.school}>{student.school ?? ADMIN_TEXT.noSchool}</p>
          <p className={styles.count}>
            <Icon name="flag" size={14} />
            {ADMIN_TEXT.reportCount(student.reports.length)}
            {!student.held && <span className={styles.weight}>{ADMIN_TEXT.holdProgress(student.weight)}</span>}
          </p>
        </div>
      </div>

      <ul className={styles.reports} aria-label={`Reports about ${name}`}>
        {student.reports.map((report, index) => (
          <li key={`${report.at}:${index}`} className={styles.report}>
            <div className={styles.reportHead}>
              <span className={report.urgent ? `${styles.reason} ${styles.urgentReason}` : styles.reason}>
                {report.reason}
              </span>
              <time className={styles.when} dateTime={report.at} title={exactTime(report.at)}>
                {timeAgo(report.at)}
              </time>
            </div>
            <p className={styles.reporter}>
              {report.reporter ? (
                <>
                  <span>{ADMIN_TEXT.reportedBy(report.reporter.firstName || "—")}</span>
                  <span className={styles.reporterId} title={report.reporter.userId}>
                    {shortId(report.reporter.userId)}
                  </span>
                  {report.weight < 1 && <span className={styles.weight}>{ADMIN_TEXT.reportWeight(report.weight)}</span>}
                </>
              ) : (
                <span>{ADMIN_TEXT.reporterDeleted}</span>
              )}
            </p>
            {report.note && <p className={styles.reportNote}>{report.note}</p>}
          </li>
        ))}
      </ul>

      <div className={styles.decisions}>
        <Button
          variant="secondary"
          icon={<Icon name="check" size={18} />}
          loading={pending === "restore"}
          disabled={locked}
          onClick={() => onAction("restore")}
          aria-label={`${ADMIN_TEXT.restore} ${name}`}
        >
          {ADMIN_TEXT.restore}
        </Button>
        <Button
          variant="danger"
          icon={<Icon name="imageOff" size={18} />}
          loading={pending === "removePhoto"}
          disabled={locked || !student.photo}
          onClick={() => onAction("removePhoto")}
          aria-label={`${ADMIN_TEXT.removePhoto} of ${name}`}
        >
          {ADMIN_TEXT.removePhoto}
        </Button>
        <Button
          variant="danger"
          icon={<Icon name="userX" size={18} />}
          loading={pending === "removeProfile"}
          disabled={locked}
          onClick={() => onAction("removeProfile")}
          aria-label={`${ADMIN_TEXT.removeProfile} of ${name}`}
        >
          {ADMIN_TEXT.removeProfile}
        </Button>
      </div>
    </article>
  );
}
