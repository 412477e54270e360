import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { LIVE_INDEX } from './queue';

// The runner's side of the job queue: claiming a job and recording its attempt's outcome.

type Q = Kysely<Database>;
const LIVE = ['queued', 'running'] as const;

/** The request id a stored payload carries (see `jobPayloadText`). */
export function requestIdOfPayload(parsed: unknown): string | undefined {
  const id = parsed && typeof parsed === 'object' && 'request_id' in parsed ? parsed.request_id : undefined;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
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
