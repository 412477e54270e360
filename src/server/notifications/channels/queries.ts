import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

type Q = Kysely<Database>;

/** How many channels one user may keep (each alert is one delivery job per channel). */
export const MAX_CHANNELS_PER_USER = 10;

export function listChannels(db: Q, userId: number) {
  return db.selectFrom('alert_channels').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function enabledChannelIds(db: Q, userId: number) {
  return db
    .selectFrom('alert_channels')
    .select('id')
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/** The channel if it is the user's (owner check and read in one). */
export function findOwnChannel(db: Q, userId: number, id: number) {
  return db
    .selectFrom('alert_channels')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findChannel(db: Q, id: number) {
  return db.selectFrom('alert_channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countChannels(db: Q, userId: number): Promise<number> {
  const r = await db
    .selectFrom('alert_channels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function insertChannel(
  db: Q,
  c: { user_id: number; type: string; target: string; secret: string; now: number },
) {
  return db
    .insertInto('alert_channels')
    .values({
      user_id: c.user_id,
      type: c.type,
      target: c.target,
      secret: c.secret,
      enabled: 1,
      failures: 0,
      created_at: c.now,
      updated_at: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Turning a channel on clears its failure count and the reason it was turned off. */
export function setChannelEnabled(db: Q, userId: number, id: number, enabled: boolean, now: number) {
  return db
    .updateTable('alert_channels')
    .set(
      enabled ? { enabled: 1, failures: 0, disabled_reason: null, updated_at: now } : { enabled: 0, updated_at: now },
    )
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteChannel(db: Q, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('alert_channels').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function recordDelivered(db: Q, id: number, now: number) {
  return db
    .updateTable('alert_channels')
    .set({ failures: 0, last_error: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** One more failure in a row; returns the row after it (null when the channel is gone). */
export function recordFailure(db: Q, id: number, error: string, now: number) {
  return db
    .updateTable('alert_channels')
    .set((eb) => ({ failures: eb('failures', '+', 1), last_error: error, updated_at: now }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Turns a channel off for failing; false when it was already off (so only one notice is raised). */
export async function disableFailing(db: Q, id: number, reason: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('alert_channels')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
