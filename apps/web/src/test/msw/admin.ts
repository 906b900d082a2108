import { ERROR_MESSAGES, REPORT_REASON_LABELS, type AuditTrail, type ReviewQueue } from "@quad/contracts";
import type { z } from "zod";
import { trpcError, type TrpcResolvers } from "./trpc";

type QueuedStudent = ReviewQueue["students"][number];
type AuditEntry = z.infer<typeof AuditTrail>["entries"][number];

export function createQueuedStudent(overrides: Partial<QueuedStudent> = {}): QueuedStudent {
  return {
    userId: "00000000-0000-4000-8000-00000000a001",
    firstName: "Jordan",
    photo: "/api/media/avatars/jordan.jpg",
    school: "State University",
    held: true,
    reports: [
      {
        reason: REPORT_REASON_LABELS.fake_profile,
        note: null,
        at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b001", firstName: "Ash" },
        weight: 1,
      },
      {
        reason: REPORT_REASON_LABELS.other,
        note: "Uses a celebrity's photos",
        at: new Date(Date.now() - 30 * 60_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b002", firstName: "Blair" },
        weight: 1,
      },
      {
        reason: REPORT_REASON_LABELS.inappropriate_photo,
        note: null,
        at: new Date(Date.now() - 5 * 60_000).toISOString(),
        reporter: { userId: "00000000-0000-4000-8000-00000000b003", firstName: "Casey" },
        weight: 1,
      },
    ],
    weight: 3,
    ...overrides,
  };
}

export interface AdminBackendOptions {
  /** Anyone else gets NOT_FOUND from every admin procedure, as from the server. */
  isAdmin?: boolean;
  students?: QueuedStudent[];
  entries?: AuditEntry[];
}

/**
 * A stand-in for admin.*: the review queue and audit trail, and the three
 * actions, each taking the student off the queue (restore, remove profile)
 * or clearing their photo, and writing an audit entry.
 */
export function createAdminBackend(options: AdminBackendOptions = {}) {
  const adminId = "00000000-0000-4000-8000-0000000ad001";
  const state = {
    students: [...(options.students ?? [createQueuedStudent()])],
    entries: [...(options.entries ?? [])],
    calls: [] as { action: string; userId: string }[],
  };

  const act =
    (action: AuditEntry["action"], change: (student: QueuedStudent) => QueuedStudent | null) =>
    ({ input }: { input: unknown }) => {
      if (options.isAdmin === false) return trpcError("NOT_FOUND", ERROR_MESSAGES.notFound);
      const { userId } = input as { userId: string };
      state.calls.push({ action, userId });
      const student = state.students.find((s) => s.userId === userId);
      if (!student) return trpcError("NOT_FOUND", "Student not found");
      const next = change(student);
      state.students = state.students.flatMap((s) => (s.userId !== userId ? [s] : next ? [next] : []));
      state.entries.unshift({ action, adminId, targetUserId: userId, at: new Date().toISOString() });
      return { ok: true as const };
    };
  const adminOnly =
    <T>(answer: () => T) =>
    () =>
      options.isAdmin === false ? trpcError("NOT_FOUND", ERROR_MESSAGES.notFound) : answer();

  const resolvers: TrpcResolvers = {
    "admin.reviewQueue": adminOnly(() => ({ students: state.students })),
    "admin.auditTrail": adminOnly(() => ({ entries: state.entries })),
    "admin.restore": act("restore", () => null),
    "admin.removeProfile": act("remove_profile", () => null),
    // Only the photo reports are resolved; the student stays queued while others are open.
    "admin.removePhoto": act("remove_photo", (student) => {
      const reports = student.reports.filter((report) => report.reason !== REPORT_REASON_LABELS.inappropriate_photo);
      return reports.length > 0 ? { ...student, photo: null, reports } : null;
    }),
  };

  return { state, resolvers };
}
