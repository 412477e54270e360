import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Micros } from '../../../shared/money';
import type { GiftCodeRow } from '../../../shared/schemas/console-money';
import type { DB } from '../../db/open';
import type { Database } from '../../db/schema';
import { fail } from '../../kernel/errors';
import { logOperatorAction, type OperatorActor } from '../../operator/log';
import { giftCodeHash, giftCodeHint, newGiftCode, normalizeGiftCode } from './codes';
import { insertGiftCodes, listGiftCodes, revokeUnusedGiftCodes } from './queries';

// The operator's side of gift codes, for the CLI (`coupons create|list|revoke`) and the
// console's Money page alike. The codes themselves are returned once to the operator
// who made them and never stored (only their hash) nor logged.

export const MAX_GIFT_COUNT = 1000;
export const MAX_GIFT_AMOUNT = 10_000_000_000; // $10,000

export type GiftBatch = { batch: string; codes: string[]; amount: Micros; expiresAt: number };

export async function createGiftCodes(
  db: DB,
  by: OperatorActor,
  input: { amount: Micros; count: number; expiresAt: number },
): Promise<GiftBatch> {
  const { amount, count, expiresAt } = input;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_GIFT_AMOUNT)
    fail('BAD_REQUEST', 'The amount must be more than $0 and at most $10000.', 'amount');
  if (!Number.isInteger(count) || count < 1 || count > MAX_GIFT_COUNT)
    fail('BAD_REQUEST', `The count must be a whole number from 1 to ${MAX_GIFT_COUNT}.`, 'count');
  if (!Number.isFinite(expiresAt) || expiresAt <= Date.now())
    fail('BAD_REQUEST', 'The expiry must be in the future.', 'expires');
  const batch = randomUUID().slice(0, 8);
  const codes = Array.from({ length: count }, newGiftCode);
  await db.transaction().execute(async (trx) => {
    await insertGiftCodes(
      trx,
      codes.map((c) => {
        const n = normalizeGiftCode(c);
        return { code_hash: giftCodeHash(n), hint: giftCodeHint(n), amount, expires_at: expiresAt, batch };
      }),
    );
    await logOperatorAction(trx, by, 'coupons create', { batch, count, amount, expires_at: expiresAt });
  });
  return { batch, codes, amount, expiresAt };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Every code (or one batch's) with its state, newest first. */
export async function giftCodeList(db: Kysely<Database>, batch?: string): Promise<GiftCodeRow[]> {
  const now = Date.now();
  return (await listGiftCodes(db, { batch })).map((r) => ({
    id: r.id,
    hint: r.hint,
    amount_micros: r.amount,
    batch: r.batch,
    created_at: iso(r.created_at)!,
    expires_at: iso(r.expires_at)!,
    state:
      r.redeemed_at !== null
        ? 'redeemed'
        : r.revoked_at !== null
          ? 'revoked'
          : r.expires_at <= now
            ? 'expired'
            : 'unused',
    redeemed_by: r.redeemed_at !== null ? (r.username ?? '(deleted user)') : null,
    redeemed_at: iso(r.redeemed_at),
    revoked_at: iso(r.revoked_at),
  }));
}

/**
 * Revokes unused codes (by id, or a whole batch's unused ones): redemption refuses them
 * from the commit on. A redeemed code is refused with a message; codes already revoked
 * are left as they are. Returns how many were revoked; nothing is logged when none was.
 */
export async function revokeGiftCodes(
  db: DB,
  by: OperatorActor,
  which: { ids: number[] } | { batch: string },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await listGiftCodes(trx, which);
    if ('ids' in which) {
      const missing = which.ids.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) fail('NOT_FOUND', `No gift code #${missing[0]}.`);
      const used = rows.find((r) => r.redeemed_at !== null);
      if (used) fail('CONFLICT', `Gift code #${used.id} was already redeemed; it cannot be revoked.`);
    } else if (!rows.length) fail('NOT_FOUND', `No gift code batch "${which.batch}".`);
    const revoked = await revokeUnusedGiftCodes(trx, which, Date.now());
    if (revoked.length)
      await logOperatorAction(trx, by, 'coupons revoke', {
        ...('batch' in which ? { batch: which.batch } : {}),
        ids: revoked,
        count: revoked.length,
      });
    return revoked.length;
  });
}
