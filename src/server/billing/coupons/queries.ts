import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { usernameOf } from '../../auth/users';

export function findGiftCodeByHash(db: Kysely<Database>, codeHash: string) {
  return db.selectFrom('gift_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

export async function insertGiftCodes(
  db: Kysely<Database>,
  rows: { code_hash: string; hint: string; amount: number; expires_at: number; batch: string }[],
) {
  const now = Date.now();
  await db
    .insertInto('gift_codes')
    .values(rows.map((r) => ({ ...r, created_at: now })))
    .execute();
}

/** Marks the code used by `userId`; false when it was used already (nothing changes). */
export async function markGiftCodeRedeemed(db: Kysely<Database>, id: number, userId: number): Promise<boolean> {
  const r = await db
    .updateTable('gift_codes')
    .set({ redeemed_by: userId, redeemed_at: Date.now() })
    .where('id', '=', id)
    .where('redeemed_by', 'is', null)
    .where('redeemed_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return (r.numUpdatedRows ?? 0n) > 0n;
}

/** Every code with who redeemed it, newest first (the operator's list), optionally one batch's, or the given ids. */
export function listGiftCodes(db: Kysely<Database>, filter: { batch?: string; ids?: number[] } = {}) {
  let q = db
    .selectFrom('gift_codes')
    .select([
      'gift_codes.id',
      'gift_codes.hint',
      'gift_codes.amount',
      'gift_codes.expires_at',
      'gift_codes.batch',
      'gift_codes.created_at',
      'gift_codes.redeemed_at',
      'gift_codes.redeemed_by',
      'gift_codes.revoked_at',
      usernameOf('gift_codes.redeemed_by').as('username'),
    ]);
  if (filter.batch !== undefined) q = q.where('gift_codes.batch', '=', filter.batch);
  if (filter.ids !== undefined) q = q.where('gift_codes.id', 'in', filter.ids.length ? filter.ids : [-1]);
  return q.orderBy('gift_codes.id', 'desc').execute();
}

/**
 * Revokes the unused codes among `ids` or in `batch` (not redeemed, not revoked yet);
 * returns the ids it revoked. A redeemed code is left alone: its credit stands.
 */
export async function revokeUnusedGiftCodes(
  db: Kysely<Database>,
  which: { ids: number[] } | { batch: string },
  now: number,
): Promise<number[]> {
  let q = db
    .updateTable('gift_codes')
    .set({ revoked_at: now })
    .where('redeemed_at', 'is', null)
    .where('redeemed_by', 'is', null)
    .where('revoked_at', 'is', null);
  q = 'ids' in which ? q.where('id', 'in', which.ids.length ? which.ids : [-1]) : q.where('batch', '=', which.batch);
  const rows = await q.returning('id').execute();
  return rows.map((r) => r.id);
}
