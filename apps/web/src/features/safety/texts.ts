/**
 * Block, report and unblock copy. Only these screens show it (the server's own
 * messages, such as "already reported", come from the server), so it lives
 * with the feature rather than in contracts.
 */
export const SAFETY_TEXT = {
  moreOptions: (name: string) => `More options for ${name}`,
  blockAction: (name: string) => `Block ${name}`,
  blockHint: "You won't see each other in rounds",
  reportAction: (name: string) => `Report ${name}`,
  reportHint: "Tell our team what's wrong",
  blockTitle: (name: string) => `Block ${name}?`,
  blockConsequences: (name: string) =>
    [
      { icon: "eye", text: "Neither of you will see the other in rounds." },
      { icon: "ballot", text: `Votes between you and ${name} are no longer stored.` },
      { icon: "refresh", text: `${name} isn't told. You can undo this in Settings.` },
    ] as const,
  blocked: (name: string) => `${name} is blocked`,
  blockFailed: "Couldn't block this student. Please try again.",
  reportTitle: (name: string) => `Report ${name}`,
  reportIntro: (name: string) => `${name} won't know who reported them. Our team reviews every report.`,
  reasonLegend: "What's wrong?",
  noteLabel: "Add a note",
  noteLabelRequired: "What happened?",
  noteOptional: "Optional",
  sendReport: "Send report",
  reported: "Thanks. Our team will review your report.",
  reportFailed: "Couldn't send your report. Please try again.",
  cancel: "Cancel",
  /** Settings: the students this student blocked. */
  noBlocks: "You haven't blocked anyone.",
  unblocked: (name: string) => `${name} is unblocked`,
} as const;
