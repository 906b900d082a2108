import { useState } from "react";
import { AppShell, Button, ButtonLink, Icon, PageHeader, Spinner, TopBar } from "../../components";
import { AuditTrail } from "./audit-trail";
import { ConfirmRemovalDialog } from "./confirm-removal-dialog";
import { QueuedStudentCard, type QueuedStudent } from "./queued-student-card";
import { ADMIN_TEXT } from "./texts";
import { useModerationActions, type ModerationAction, type ModerationData } from "./use-moderation";
import styles from "./admin.module.css";

type Confirming = { kind: "removeProfile" | "removePhoto"; student: QueuedStudent } | null;

/** `/admin` for an admin: the review queue with its decisions, then the audit trail. */
export function ModerationScreen({ data }: { data: ModerationData }) {
  const { queue, audit } = data;
  const actions = useModerationActions();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const students = queue.data?.students;

  const act = (action: ModerationAction, student: QueuedStudent) => {
    if (action === "restore") void actions.run("restore", student);
    else setConfirming({ kind: action, student });
  };

  return (
    <AppShell width="wide">
      <TopBar
        end={
          <ButtonLink to="/home" variant="ghost">
            {ADMIN_TEXT.backToQuad}
          </ButtonLink>
        }
      />
      <PageHeader eyebrow={ADMIN_TEXT.eyebrow} title={ADMIN_TEXT.title} subtitle={ADMIN_TEXT.subtitle} />

      <section className={styles.section} aria-labelledby="review-queue">
        <div className={styles.sectionHead}>
          <h2 id="review-queue" className={styles.sectionTitle}>
            {ADMIN_TEXT.queueTitle}
          </h2>
          {students && <span className={styles.pill}>{students.length}</span>}
        </div>

        {queue.isError ? (
          <div className={styles.state} role="alert">
            <p className={styles.stateTitle}>{ADMIN_TEXT.loadFailed}</p>
            <Button variant="secondary" icon={<Icon name="refresh" size={18} />} onClick={() => void queue.refetch()}>
              {ADMIN_TEXT.tryAgain}
            </Button>
          </div>
        ) : !students ? (
          <div className={styles.state}>
            <Spinner size="md" label="Loading the review queue" />
          </div>
        ) : students.length === 0 ? (
          <div className={styles.state}>
            <span className={styles.stateIcon} aria-hidden="true">
              <Icon name="check" size={28} />
            </span>
            <p className={styles.stateTitle}>{ADMIN_TEXT.queueEmptyTitle}</p>
            <p>{ADMIN_TEXT.queueEmptyBody}</p>
          </div>
        ) : (
          <ul className={styles.queue}>
            {students.map((student) => (
              <li key={student.userId}>
                <QueuedStudentCard
                  student={student}
                  pending={actions.pending?.userId === student.userId ? actions.pending.action : undefined}
                  busy={actions.pending !== undefined && actions.pending.userId !== student.userId}
                  onAction={(action) => act(action, student)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={styles.section} aria-labelledby="audit-trail">
        <div className={styles.sectionHead}>
          <h2 id="audit-trail" className={styles.sectionTitle}>
            {ADMIN_TEXT.auditTitle}
          </h2>
        </div>
        <p className={styles.sectionSubtitle}>{ADMIN_TEXT.auditSubtitle}</p>
        <AuditTrail entries={audit.data?.entries} />
      </section>

      {confirming && (
        <ConfirmRemovalDialog
          kind={confirming.kind}
          name={confirming.student.firstName || "this student"}
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            void actions.run(confirming.kind, confirming.student);
          }}
        />
      )}
    </AppShell>
  );
}
