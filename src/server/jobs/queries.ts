import { sql, type Kysely } from 'kysely';
import type { QueuedJobName, QueuedJobPayload } from '../../shared/jobs';
import type { Database } from '../db/schema';
import { currentRequestId } from '../kernel/log';

type Q = Kysely<Database>;
const LIVE = ['queued', 'running'] as const;
// Written out (not bound): SQLite matches an upsert target to a partial index by its text.
const LIVE_INDEX = sql<boolean>`state in ('queued', 'running')`;

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

/** The request id a stored payload carries (see `jobPayloadText`). */
export function requestIdOfPayload(parsed: unknown): string | undefined {
  const id = parsed && typeof parsed === 'object' && 'request_id' in parsed ? parsed.request_id : undefined;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
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

/** Ids of jobs that may be claimed now: due queued jobs, and running jobs whose lease ran out. A read: costs no write while idle. */
export async function claimableJobs(db: Q, names: string[], now: number, limit: number) {
  if (!names.length || limit <= 0) return [];
  // The condition written as the partial index's own (not bound parameters), so SQLite uses jobs_due.
  return db
    .selectFrom('jobs')
    .select(['id', 'name'])
    .where(LIVE_INDEX)
    .where('run_at', '<=', now)
    .where('name', 'in', names)
    .orderBy('run_at')
    .limit(limit)
    .execute();
}

/**
 * Takes one job for an attempt, if it is still claimable (another process may have won).
 * One UPDATE, so SQLite's single writer makes the claim atomic across processes.
 */
export function claimJob(db: Q, id: number, owner: string, now: number, leaseUntil: number) {
  return db
    .updateTable('jobs')
    .set((eb) => ({ state: 'running', owner, attempts: eb('attempts', '+', 1), run_at: leaseUntil, updated_at: now }))
    .where('id', '=', id)
    .where('state', 'in', LIVE)
    .where('run_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}

/** The fence: an outcome is recorded only by the attempt that still holds the claim. */
type Claim = { id: number; owner: string; attempts: number };
const held = (db: Q, c: Claim) =>
  db
    .updateTable('jobs')
    .where('id', '=', c.id)
    .where('owner', '=', c.owner)
    .where('attempts', '=', c.attempts)
    .where('state', '=', 'running');

export function finishJob(db: Q, c: Claim) {
  return db
    .deleteFrom('jobs')
    .where('id', '=', c.id)
    .where('owner', '=', c.owner)
    .where('attempts', '=', c.attempts)
    .where('state', '=', 'running')
    .execute();
}

export function retryJob(db: Q, c: Claim, runAt: number, error: string) {
  return held(db, c)
    .set({ state: 'queued', owner: null, run_at: runAt, last_error: error, updated_at: Date.now() })
    .execute();
}

export function failJob(db: Q, c: Claim, error: string) {
  return held(db, c).set({ state: 'failed', owner: null, last_error: error, updated_at: Date.now() }).execute();
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
    .select(['id', 'name', 'key', 'attempts', 'last_error', 'updated_at', 'created_at'])
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
