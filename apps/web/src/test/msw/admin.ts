import { ERROR_MESSAGES, REPORT_REASON_LABELS, type AuditTrail, type ReviewQueue } from "@quad/contracts";
import type { z } from "zod";
import { recording, trpcError, type TrpcResolvers } from "./trpc";

type QueuedStudent = ReviewQueue["students"][number];
type AuditEntry = z.infer<typeof AuditTrail>["entries"][number];

export function createQueuedStudent(overrides: Partial<QueuedStudent> = {}): QueuedStudent {
  return {
    userId: "00000000-0000-4000-8000-00000000a001",
    firstName: "Jordan",
    photo: "/api/media/avatars/jordan.jpg",
    school: "State University",
    held: true,
    urgentSince: null,
    reports: [
      {
        reason: REPORT_REASON_LABELS.fake_profile,
        note: null,
        at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b001", firstName: "Ash" },
        weight: 1,
        urgent: false,
      },
      {
        reason: REPORT_REASON_LABELS.other,
        note: "Uses a celebrity's photos",
        at: new Date(Date.now() - 30 * 60_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b002", firstName: "Blair" },
        weight: 1,
        urgent: false,
      },
      {
        reason: REPORT_REASON_LABELS.inappropriate_photo,
        note: null,
        at: new Date(Date.now() - 5 * 60_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b003", firstName: "Casey" },
        weight: 1,
        urgent: false,
      },
    ],
    weight: 3,
    ...overrides,
  };
}

/** What the review queue and the audit trail answer. */
export interface AdminView {
  students: QueuedStudent[];
  entries?: AuditEntry[];
}

export interface AdminAnswersOptions extends Partial<AdminView> {
  /** Anyone else gets NOT_FOUND from every admin procedure, as from the server. */
  isAdmin?: boolean;
  /** What the queue and the trail answer once an action (restore, remove profile, remove photo) went out. */
  after?: AdminView;
}

/**
 * Canned answers for admin.*: the review queue and audit trail a test
 * states, switching to `after` once an action went out (a flag, no rules:
 * which actions take a student off the queue is the server's, tested in
 * apps/server). Every action answers ok; `sent(path)` is what the UI sent.
 */
export function adminAnswers(options: AdminAnswersOptions = {}) {
  const before: AdminView = { students: options.students ?? [createQueuedStudent()], entries: options.entries };
  const recorded = recording({
    "admin.reviewQueue": () => ({ students: view().students }),
    "admin.auditTrail": () => ({ entries: view().entries ?? [] }),
    "admin.restore": () => ({ ok: true }),
    "admin.removeProfile": () => ({ ok: true }),
    "admin.removePhoto": () => ({ ok: true }),
    ...(options.isAdmin === false ? notAdmin : {}),
  });
  const acted = () => ACTIONS.some((path) => recorded.sent(path).length > 0);
  const view = () => (options.after && acted() ? options.after : before);
  return recorded;
}

const ACTIONS = ["admin.restore", "admin.removeProfile", "admin.removePhoto"] as const;
const notAdmin: TrpcResolvers = Object.fromEntries(
  ["admin.reviewQueue", "admin.auditTrail", ...ACTIONS].map((path) => [
    path,
    () => trpcError("NOT_FOUND", ERROR_MESSAGES.notFound),
  ]),
);
