import { useState, type ReactNode } from "react";
import { BlockDialog } from "./block-dialog";
import { CardActionsSheet } from "./card-actions-sheet";
import { ReportDialog } from "./report-dialog";
import type { SafetySubject } from "./subject";
import { useBlockStudent } from "./use-block-student";

type Step = { kind: "menu" | "block" | "report"; subject: SafetySubject } | null;

export interface SafetyActions {
  /** Opens the card menu (Block / Report) for this student. */
  open: (subject: SafetySubject) => void;
  /** The menu and its dialogs; render them beside the card. */
  dialogs: ReactNode;
}

/**
 * Block and report from a card: the ⋯ menu, the block confirmation and the
 * report form. `onBlocked` runs after a block went through (a vote's detail
 * closes). What either makes stale (the round, the blocked list) is
 * refreshed by lib/refresh-after.ts.
 */
export function useSafetyActions({ onBlocked }: { onBlocked?: (subject: SafetySubject) => void } = {}): SafetyActions {
  const [step, setStep] = useState<Step>(null);
  const { block, blocking } = useBlockStudent();
  const close = () => setStep(null);

  const confirmBlock = async (subject: SafetySubject) => {
    if (!(await block(subject))) return;
    setStep(null);
    onBlocked?.(subject);
  };

  let dialogs: ReactNode = null;
  if (step?.kind === "menu") {
    dialogs = (
      <CardActionsSheet
        subject={step.subject}
        onBlock={() => setStep({ kind: "block", subject: step.subject })}
        onReport={() => setStep({ kind: "report", subject: step.subject })}
        onClose={close}
      />
    );
  } else if (step?.kind === "block") {
    dialogs = (
      <BlockDialog
        subject={step.subject}
        blocking={blocking}
        onConfirm={() => void confirmBlock(step.subject)}
        onClose={close}
      />
    );
  } else if (step?.kind === "report") {
    dialogs = <ReportDialog subject={step.subject} onClose={close} />;
  }

  return { open: (subject) => setStep({ kind: "menu", subject }), dialogs };
}
