import { BACKGROUND_JOB_INTERVAL_MS } from "@quad/contracts";
import type { Database } from "@quad/db";
import type { FastifyBaseLogger } from "fastify";
import type { JobDefinition } from "../../jobs/scheduler";
import { sendQueuedPushes } from "../push/queue";
import type { PushSender } from "../push/sender";
import { sendQueuedMessages } from "../sms/queue";
import type { SmsProvider } from "../sms/sender";
import { textInsteadOfPush, type PushFallbackReport } from "./push-fallback";
import { purgeExpired } from "./purge";
import { queueVoteNotices } from "./vote-notices";

export const NOTIFICATION_JOB = "notifications";

export interface NotificationJobDeps {
  db: Database;
  provider: SmsProvider;
  /** Present when Web Push is on: students with a subscribed device get pushes instead of texts. */
  push?: PushSender;
  now: () => Date;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, "info">;
}

/**
 * The 10-minute job (docs/product.md "Notifications", docs/architecture.md
 * "Jobs"): queue vote notices, send what is queued (pushes, then texts, new
 * notices and retries, with a text for a push no device received), purge
 * what has expired.
 */
export function notificationJob(deps: NotificationJobDeps): JobDefinition {
  return {
    name: NOTIFICATION_JOB,
    intervalMs: BACKGROUND_JOB_INTERVAL_MS,
    async run(signal) {
      const notices = await queueVoteNotices({ ...deps, pushEnabled: deps.push !== undefined, signal });
      // Pushes first: a notice no device received is texted instead, and goes out in this run.
      let fallback: PushFallbackReport | undefined;
      const textInstead = textInsteadOfPush(deps);
      const pushes = deps.push
        ? await sendQueuedPushes({
            ...deps,
            sender: deps.push,
            signal,
            onDropped: async (noticeIds) => (fallback = await textInstead(noticeIds)),
          })
        : undefined;
      const messages = await sendQueuedMessages({ ...deps, signal });
      if (signal.aborted) return;
      const purged = await purgeExpired(deps.db, deps.now());
      deps.log.info({ notices, pushes, fallback, messages, purged }, "notification job done");
    },
  };
}
