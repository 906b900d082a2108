import { BACKGROUND_JOB_INTERVAL_MS } from "@quad/contracts";
import type { Database } from "@quad/db";
import type { FastifyBaseLogger } from "fastify";
import type { JobDefinition } from "../../jobs/scheduler";
import { sendQueuedMessages } from "../sms/queue";
import type { SmsProvider } from "../sms/sender";
import { purgeExpired } from "./purge";
import { queueVoteNotices } from "./vote-notices";

export const NOTIFICATION_JOB = "notifications";

export interface NotificationJobDeps {
  db: Database;
  provider: SmsProvider;
  now: () => Date;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, "info">;
}

/**
 * The 10-minute job (docs/product.md, docs/architecture.md "Notifications and the 10-minute
 * job"): queue vote notices, send what is queued (new notices and retries),
 * purge what has expired.
 */
export function notificationJob(deps: NotificationJobDeps): JobDefinition {
  return {
    name: NOTIFICATION_JOB,
    intervalMs: BACKGROUND_JOB_INTERVAL_MS,
    async run(signal) {
      const notices = await queueVoteNotices({ ...deps, signal });
      const messages = await sendQueuedMessages({ ...deps, signal });
      if (signal.aborted) return;
      const purged = await purgeExpired(deps.db, deps.now());
      deps.log.info({ notices, messages, purged }, "notification job done");
    },
  };
}
