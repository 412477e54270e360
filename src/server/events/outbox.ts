import { sql, type Kysely } from 'kysely';
import type { LiveEventName, LiveEventPayload } from '../../shared/events';
import type { Database } from '../db/schema';

/**
 * Writes a live event in the caller's transaction. It is delivered only after the
 * transaction commits (the hub reads committed rows), so no client hears of a change
 * that was rolled back. `userId` null means every connected user.
 */
export async function insertEvent<N extends LiveEventName>(
  db: Kysely<Database>,
  userId: number | null,
  type: N,
  payload: LiveEventPayload<N>,
): Promise<number> {
  const row = await db
    .insertInto('events')
    .values({ user_id: userId, type, payload: JSON.stringify(payload), created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * `insertEvent` for many users at once (one statement): a batch writer's events, e.g. a
 * chunk of the daily charge. The rows travel as one JSON array, so the statement's text is
 * the same whatever their number and SQLite prepares it once (a VALUES list of N rows is
 * a new statement for every N).
 */
export async function insertEvents<N extends LiveEventName>(
  db: Kysely<Database>,
  type: N,
  rows: Array<{ userId: number; payload: LiveEventPayload<N> }>,
): Promise<void> {
  if (!rows.length) return;
  const json = JSON.stringify(rows.map((r) => [r.userId, JSON.stringify(r.payload)]));
  await sql`INSERT INTO events (user_id, type, payload, created_at) SELECT value ->> 0, ${type}, value ->> 1, ${Date.now()} FROM json_each(${json})`.execute(
    db,
  );
}

export function eventsAfter(db: Kysely<Database>, afterId: number, limit = 500) {
  return db.selectFrom('events').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export function eventsForUserAfter(db: Kysely<Database>, userId: number, afterId: number, limit = 500) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('id', '>', afterId)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function lastEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Deletes up to `limit` events older than `olderThan`; returns how many (the caller repeats, keeping each write short). */
export async function pruneEvents(db: Kysely<Database>, olderThan: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('events')
    .where('id', 'in', (eb) =>
      eb.selectFrom('events').select('id').where('created_at', '<', olderThan).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * The internal event that tells open live subscriptions their session ended (logout,
 * password change or reset, a disabled account, the per-user cap). It is never
 * forwarded to clients: it is not in the shared event map. Written in the revoking
 * transaction, so it reaches subscriptions of this process and of the server when
 * the operator CLI (another process) revokes, in order before any later event.
 */
export const SESSIONS_ENDED = 'sessions_ended';
export type SessionsEndedPayload = { session_ids: number[] };

export async function insertSessionsEnded(db: Kysely<Database>, userId: number, sessionIds: number[]): Promise<void> {
  if (!sessionIds.length) return;
  const payload: SessionsEndedPayload = { session_ids: sessionIds };
  await db
    .insertInto('events')
    .values({ user_id: userId, type: SESSIONS_ENDED, payload: JSON.stringify(payload), created_at: Date.now() })
    .execute();
}
