import { sql, type Kysely } from 'kysely';
import type { QueuedJobName, QueuedJobPayload } from '../../shared/jobs';
import type { Database } from '../db/schema';
import { currentRequestId } from '../kernel/log';

// The job queue as other folders use it: queue a job, look one up, and the operator's view
// of failed ones. Claiming and recording attempts are the runner's (queries.ts).

type Q = Kysely<Database>;
// Written out (not bound): SQLite matches an upsert target to a partial index by its text.
export const LIVE_INDEX = sql<boolean>`state in ('queued', 'running')`;

export type EnqueueOptions = {
  /** Single flight: while a job with this key is queued or running, another is not added. Default: a fresh key. */
  key?: string;
  /** Not before this time (epoch ms). Default: now. */
  runAt?: number;
};

/**
 * Queues a job in the caller's transaction (so it exists only if the change that asks
 * for it commits). Any process sharing the database file may call it; the server's
 * runner finds it on its next look. Returns false when a live job with the key exists.
 */
export function enqueueJob<N extends QueuedJobName>(
  db: Q,
  name: N,
  payload: QueuedJobPayload<N>,
  opts: EnqueueOptions = {},
): Promise<boolean> {
  return insertJob(db, name, jobPayloadText(payload), opts);
}

/**
 * The payload as stored: with the id of the request (or job) that queues it, so the
 * job's log lines carry the id of the request that asked for it (the runner scopes its
 * attempt with it). The payload schemas ignore the extra field.
 */
export function jobPayloadText(payload: object): string {
  const requestId = currentRequestId();
  return JSON.stringify(requestId ? { ...payload, request_id: requestId } : payload);
}

/** Untyped form of `enqueueJob`, for the runner (whose job map a test may replace). */
export async function insertJob(db: Q, name: string, payload: string, opts: EnqueueOptions = {}): Promise<boolean> {
  const now = Date.now();
  const res = await db
    .insertInto('jobs')
    .values({
      name,
      key: opts.key ?? `${name}:${crypto.randomUUID()}`,
      payload,
      state: 'queued',
      run_at: opts.runAt ?? now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('key').where(LIVE_INDEX).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findJobs(db: Q, name: string) {
  return db.selectFrom('jobs').selectAll().where('name', '=', name).orderBy('id').execute();
}

/** Failed jobs stay for the operator to read, then go. */
export async function pruneFailedJobs(db: Q, olderThan: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('id', 'in', (eb) =>
      eb.selectFrom('jobs').select('id').where('state', '=', 'failed').where('updated_at', '<', olderThan).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Failed jobs, newest first, for the operator (their reason is `last_error`). */
export function listFailedJobs(db: Q, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'name', 'key', 'payload', 'attempts', 'last_error', 'updated_at', 'created_at'])
    .where('state', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findJob(db: Q, id: number) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether another row of the key is queued or running (single flight). */
export async function liveJobOfKey(db: Q, key: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('jobs')
      .select('id')
      .where('key', '=', key)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst()) !== undefined
  );
}

/** A failed job queued again, due now, with a fresh count of attempts. */
export async function requeueFailedJob(db: Q, id: number): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ state: 'queued', owner: null, attempts: 0, run_at: Date.now(), updated_at: Date.now() })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** How many queued jobs gave up (the console's overview). */
export async function countFailedJobs(db: Q): Promise<number> {
  const r = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'failed')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
