import type { Kysely } from 'kysely';
import type { Database, Masternode } from '../db/schema';
import { interchangeFileName } from './slashing-protection';

type Q = Kysely<Database>;

/** How long a destroyed validator's slashing-protection file is kept for its owner. */
export const EXIT_FILE_KEEP_MS = 30 * 86_400_000;

type Kept = Pick<Masternode, 'mn_id' | 'user_id' | 'coin_id' | 'alias' | 'delete_reason'>;

/**
 * Keeps the validator's file for its owner; the first file made for a node is the one kept
 * (the owner's delete and the control loop may both make one: either bounds what the key
 * signed). Answers the kept file's text.
 */
export async function keepExitFile(db: Q, n: Kept, pubkey: string, interchange: string, now = Date.now()) {
  await db
    .insertInto('validator_exit_files')
    .values({
      mn_id: n.mn_id,
      user_id: n.user_id,
      coin_id: n.coin_id,
      alias: n.alias,
      pubkey,
      interchange,
      reason: n.delete_reason,
      created_at: now,
      expires_at: now + EXIT_FILE_KEEP_MS,
    })
    .onConflict((oc) => oc.column('mn_id').doNothing())
    .execute();
  const kept = await db
    .selectFrom('validator_exit_files')
    .select('interchange')
    .where('mn_id', '=', n.mn_id)
    .executeTakeFirstOrThrow();
  return kept.interchange;
}

export async function hasExitFile(db: Q, mnId: string): Promise<boolean> {
  return !!(await db.selectFrom('validator_exit_files').select('mn_id').where('mn_id', '=', mnId).executeTakeFirst());
}

/** The owner's destroyed validators whose files are still kept, newest first. */
export async function listExitFiles(db: Q, userId: number, now = Date.now()) {
  const rows = await db
    .selectFrom('validator_exit_files')
    .select(['mn_id', 'coin_id', 'alias', 'pubkey', 'reason', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, file_name: interchangeFileName(r.pubkey) }));
}

/** One kept file of the owner's; undefined for anyone else's, an unknown or an expired one. */
export async function findExitFile(db: Q, userId: number, mnId: string, now = Date.now()) {
  const r = await db
    .selectFrom('validator_exit_files')
    .select(['pubkey', 'interchange'])
    .where('mn_id', '=', mnId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return r && { file_name: interchangeFileName(r.pubkey), json: r.interchange };
}

/** Housekeeping: files past their 30 days go (`before` is now: the expiry is on the row). */
export async function pruneExitFiles(db: Q, before: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('validator_exit_files')
    .where('mn_id', 'in', (eb) =>
      eb.selectFrom('validator_exit_files').select('mn_id').where('expires_at', '<=', before).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
