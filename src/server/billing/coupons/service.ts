import { formatUsdGrouped } from '../../../shared/money';
import type { Context } from '../../rpc/context';
import { fail } from '../../kernel/errors';
import { afterRaise } from '../../notifications/raise';
import { PLATFORM, postTransfer, userAccount } from '../ledger';
import { giftCodeHash, normalizeGiftCode } from './codes';
import { findGiftCodeByHash, markGiftCodeRedeemed } from './queries';

type Ctx = Pick<Context, 'db' | 'limiter' | 'req' | 'hub' | 'mail'>;

export const GIFT_MESSAGES = {
  invalid: 'Invalid gift code.',
  expired: 'This gift code has expired.',
  used: 'This gift code was already used.',
  tooMany: 'Too many gift code attempts. Please wait an hour and try again.',
} as const;

type Outcome = { ok: true; amount: number } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/**
 * Redeems a gift code for the user. Every attempt takes a slot from the account's and the
 * address's guessing limits first (a slot is handed back only when the code was good),
 * so parallel guesses cannot all pass a check made before any was counted. The check,
 * the mark and the credit are one BEGIN IMMEDIATE transaction, and the credit's key is
 * `coupon:<id>`: however many users redeem one code at once, exactly one is credited.
 */
export async function redeemGiftCode(ctx: Ctx, userId: number, code: string) {
  if (!ctx.limiter.hit('giftCodePerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', GIFT_MESSAGES.tooMany);
  if (!ctx.limiter.hit('giftCodePerAccount', userId)) {
    ctx.limiter.refund('giftCodePerIp', ctx.req.ip);
    fail('TOO_MANY_REQUESTS', GIFT_MESSAGES.tooMany);
  }
  const normalized = normalizeGiftCode(code);
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = normalized ? await findGiftCodeByHash(trx, giftCodeHash(normalized)) : undefined;
    // A revoked code reads as one that never existed: its holder learns nothing more.
    if (!row || row.revoked_at !== null) return { ok: false, reason: 'invalid' };
    if (row.redeemed_by !== null || row.redeemed_at !== null) return { ok: false, reason: 'used' };
    if (row.expires_at <= Date.now()) return { ok: false, reason: 'expired' };
    if (!(await markGiftCodeRedeemed(trx, row.id, userId))) return { ok: false, reason: 'used' };
    const posted = await postTransfer(trx, {
      idempotencyKey: `coupon:${row.id}`,
      debit: PLATFORM.giftCodes,
      credit: userAccount(userId),
      amount: row.amount,
      kind: 'gift_code',
      description: 'Gift code',
    });
    // The code row and the transfer are written together; a transfer without its mark would be a bug.
    if (!posted) throw new Error(`gift code ${row.id} had a transfer but no redemption mark`);
    return { ok: true, amount: row.amount };
  });
  if (!outcome.ok) {
    fail(
      outcome.reason === 'invalid' ? 'NOT_FOUND' : outcome.reason === 'used' ? 'CONFLICT' : 'BAD_REQUEST',
      GIFT_MESSAGES[outcome.reason],
    );
  }
  ctx.limiter.refund('giftCodePerIp', ctx.req.ip);
  ctx.limiter.refund('giftCodePerAccount', userId);
  afterRaise(ctx);
  return {
    success: true as const,
    message: `Gift code redeemed: $${formatUsdGrouped(outcome.amount)} was added to your balance.`,
  };
}
