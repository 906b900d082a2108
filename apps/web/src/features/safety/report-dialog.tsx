import { useId, useState, type FormEvent } from "react";
import { REPORT_NOTE_MAX, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from "@quad/contracts";
import { Button, Icon, Modal } from "../../components";
import { FieldError } from "../auth/ui/fields";
import { parseReportForm, type ReportFieldErrors } from "./report-form";
import type { SafetySubject } from "./subject";
import { SAFETY_TEXT } from "./texts";
import { useReportStudent } from "./use-report-student";
import styles from "./safety.module.css";

export interface ReportDialogProps {
  subject: SafetySubject;
  /** On cancel, and once the report went through. */
  onClose: () => void;
}

/**
 * Report a student: one of the contracts' reasons and a short note (needed
 * for "Something else"). Checked with the contracts schema before sending,
 * so the messages are the server's.
 */
export function ReportDialog({ subject, onClose }: ReportDialogProps) {
  const formId = useId();
  const noteId = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<ReportFieldErrors>({});
  const { report, reporting } = useReportStudent();
  const noteRequired = reason === "other";
  const overLimit = note.trim().length > REPORT_NOTE_MAX;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reporting) return;
    const parsed = parseReportForm(subject.target, reason, note);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    const outcome = await report(parsed.request);
    if (outcome.kind === "done") onClose();
    else if (outcome.kind === "invalid") setErrors(outcome.errors);
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!reporting}
      hideCloseButton={reporting}
      size="md"
      title={SAFETY_TEXT.reportTitle(subject.name)}
      description={SAFETY_TEXT.reportIntro(subject.name)}
      footer={
        <>
          <Button type="submit" form={formId} size="lg" block loading={reporting} icon={<Icon name="flag" size={20} />}>
            {SAFETY_TEXT.sendReport}
          </Button>
          <Button variant="ghost" block disabled={reporting} onClick={onClose}>
            {SAFETY_TEXT.cancel}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className={styles.reasons} aria-invalid={errors.reason ? true : undefined}>
          <legend className={styles.legend}>{SAFETY_TEXT.reasonLegend}</legend>
          <div className={styles.reasonList}>
            {REPORT_REASONS.map((option) => (
              <label key={option} className={styles.reason}>
                <input
                  type="radio"
                  name="reason"
                  value={option}
                  checked={reason === option}
                  onChange={() => {
                    setReason(option);
                    setErrors((current) => ({ ...current, reason: undefined }));
                  }}
                  className={styles.reasonInput}
                />
                {REPORT_REASON_LABELS[option]}
              </label>
            ))}
          </div>
          {errors.reason && <FieldError>{errors.reason}</FieldError>}
        </fieldset>

        <div className={styles.noteField}>
          <div className={styles.noteHeader}>
            <label htmlFor={noteId} className={styles.legend}>
              {noteRequired ? SAFETY_TEXT.noteLabelRequired : SAFETY_TEXT.noteLabel}
            </label>
            {!noteRequired && <span className={styles.optional}>{SAFETY_TEXT.noteOptional}</span>}
          </div>
          <textarea
            id={noteId}
            className={`${styles.note} ${errors.note || overLimit ? styles.noteInvalid : ""}`}
            rows={3}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
              setErrors((current) => ({ ...current, note: undefined }));
            }}
            required={noteRequired}
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={`${noteId}-count${errors.note ? ` ${noteId}-error` : ""}`}
          />
          <div className={styles.noteFooter}>
            {errors.note ? <FieldError id={`${noteId}-error`}>{errors.note}</FieldError> : <span />}
            <span id={`${noteId}-count`} className={`${styles.count} ${overLimit ? styles.countOver : ""}`}>
              <span className="visually-hidden">Characters used: </span>
              {note.trim().length}/{REPORT_NOTE_MAX}
            </span>
          </div>
        </div>
      </form>
    </Modal>
  );
}
