import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export function findGiftCodeByHash(db: Kysely<Database>, codeHash: string) {
  return db.selectFrom('gift_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

export async function insertGiftCodes(db: Kysely<Database>, rows: { code_hash: string; hint: string; amount: number; expires_at: number; batch: string }[]) {
  const now = Date.now();
  await db
    .insertInto('gift_codes')
    .values(rows.map((r) => ({ ...r, created_at: now })))
    .execute();
}

/** Marks the code used by `userId`; false when it was used already (nothing changes). */
export async function markGiftCodeRedeemed(db: Kysely<Database>, id: number, userId: number): Promise<boolean> {
  const r = await db.updateTable('gift_codes').set({ redeemed_by: userId, redeemed_at: Date.now() }).where('id', '=', id).where('redeemed_by', 'is', null).where('redeemed_at', 'is', null).executeTakeFirst();
  return (r.numUpdatedRows ?? 0n) > 0n;
}

/** Every code with who redeemed it, newest first (the operator's list). */
export function listGiftCodes(db: Kysely<Database>) {
  return db
    .selectFrom('gift_codes')
    .leftJoin('users', 'users.id', 'gift_codes.redeemed_by')
    .select(['gift_codes.id', 'gift_codes.hint', 'gift_codes.amount', 'gift_codes.expires_at', 'gift_codes.batch', 'gift_codes.redeemed_at', 'users.username'])
    .orderBy('gift_codes.id', 'desc')
    .execute();
}
