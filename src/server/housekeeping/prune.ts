import { pruneEndedSessions, prunePageVisits, pruneUsernameHolds } from '../auth/retention';
import type { DB } from '../db/open';
import { pruneEvents } from '../events/outbox';
import { pruneDestroyedNodes, pruneExitFiles } from '../nodes/lifecycle';
import { pruneFailedJobs } from '../jobs/queue';
import { pruneClearedNotifications } from '../notifications/retention';
import { pruneHeldConversations } from '../support/retention';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';

const DAY = 86_400_000;

/** How long each kind of row is kept once it has served (src/server/housekeeping/README.md). */
export const RETENTION = {
  /** Live events are hints for clients; a week covers any reconnect replay. */
  eventsMs: 7 * DAY,
  /** Nothing reads visits back yet; a month is enough for any look at usage. */
  pageVisitsMs: 30 * DAY,
  /** Expired or revoked sessions stay a week so the operator can still see them (`users show`). */
  endedSessionsMs: 7 * DAY,
  /** Deleted and destroyed nodes (finished build-queue items) stay a week: after any daily charge or operator check. */
  destroyedNodesMs: 7 * DAY,
  /** A destroyed validator's slashing-protection file: its 30 days are on the row (`expires_at`). */
  validatorExitFilesMs: 0,
  /** Jobs that gave up stay a month for the operator to read their error. */
  failedJobsMs: 30 * DAY,
  /** Cleared notifications are no longer shown; a month lets support still see what was sent. */
  clearedNotificationsMs: 30 * DAY,
  /** A username hold (auth/account.ts `register`) is deleted once expired: the name is free again. */
  usernameHoldsMs: 0,
  /** Held visitor chats never confirmed go a day after their link expired (until then the link says it expired). */
  heldSupportChatsMs: DAY,
};

/** Rows per delete: each is a short write, so the CLI and requests never wait long on SQLite's one writer. */
const BATCH = 2000;

type Pruner = (db: DB, before: number, limit: number) => Promise<number>;

/** Deletes what has outlived its use, in short batches; returns counts per table. */
export async function pruneAll(
  db: DB,
  now: number,
  signal?: AbortSignal,
  retention = RETENTION,
): Promise<Record<string, number>> {
  const steps: [string, Pruner, number][] = [
    ['events', pruneEvents, retention.eventsMs],
    ['page_visits', prunePageVisits, retention.pageVisitsMs],
    ['sessions', pruneEndedSessions, retention.endedSessionsMs],
    ['nodes', pruneDestroyedNodes, retention.destroyedNodesMs],
    ['validator_exit_files', pruneExitFiles, retention.validatorExitFilesMs],
    ['jobs', pruneFailedJobs, retention.failedJobsMs],
    ['notifications', pruneClearedNotifications, retention.clearedNotificationsMs],
    ['username_holds', pruneUsernameHolds, retention.usernameHoldsMs],
    ['support_conversations', pruneHeldConversations, retention.heldSupportChatsMs],
  ];
  const counts: Record<string, number> = {};
  for (const [table, prune, keepMs] of steps) {
    counts[table] = 0;
    for (;;) {
      signal?.throwIfAborted();
      const n = await prune(db, now - keepMs, BATCH);
      counts[table] += n;
      if (n < BATCH) break;
      await new Promise((resolve) => setImmediate(resolve)); // let requests in between batches
    }
  }
  return counts;
}

/** The recurring job `prune`: at start and every hour. */
export function schedulePruning(jobs: JobRunner, db: DB, log: Logger): void {
  jobs.every('prune', {
    cron: '17 * * * *',
    atStart: true,
    deadlineMs: 5 * 60_000,
    async run(signal) {
      const counts = await pruneAll(db, Date.now(), signal);
      if (Object.values(counts).some((n) => n > 0)) log.info('pruned', counts);
    },
  });
}
