import type { Micros } from '../../shared/money';
import { MICROS_PER_USD } from '../../shared/money';
import { findUserById } from '../auth/queries';
import type { MoneyTx } from '../billing/ledger';
import { PLATFORM, postTransfer, userAccount } from '../billing/ledger';
import { raise } from '../notifications/raise';

/** $10 to the referrer when the referred user's first deposit is at least $10 (section 9). */
export const REFERRAL_BONUS: Micros = 10 * MICROS_PER_USD;
export const REFERRAL_MIN_DEPOSIT: Micros = 10 * MICROS_PER_USD;

/**
 * Called in the transaction that credits a deposit, after its transfer: when this was
 * the user's first deposit (crypto or card; gift codes and credits are not deposits), it
 * was at least $10 and the user came through a referral link of another active user,
 * the referrer gets the bonus. Keyed by the referred user, so whatever replays, races
 * or later deposits happen, one bonus is paid per referred user, ever.
 */
export async function payReferralBonus(trx: MoneyTx, userId: number, depositTransferId: number, amount: Micros): Promise<boolean> {
  if (amount < REFERRAL_MIN_DEPOSIT) return false;
  const first = await trx
    .selectFrom('ledger_transfers')
    .select('id')
    .where('credit_account', '=', userAccount(userId))
    .where('kind', 'in', ['crypto_deposit', 'card_payment'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (first?.id !== depositTransferId) return false;
  const user = await findUserById(trx, userId);
  // The referrer as resolved at registration (a code is the referrer's username, any
  // case): the account that existed then, never one that took the name later.
  if (user?.referrer_id == null) return false;
  const referrer = await findUserById(trx, user.referrer_id);
  if (!referrer || referrer.id === userId || referrer.disabled_at !== null) return false;
  const paid = await postTransfer(trx, {
    idempotencyKey: `referral-bonus:${userId}`,
    debit: PLATFORM.referrals,
    credit: userAccount(referrer.id),
    amount: REFERRAL_BONUS,
    kind: 'referral_bonus',
    description: `Referral bonus: ${user.username}'s first deposit`,
    meta: { referred_user_id: userId, deposit_transfer_id: depositTransferId },
  });
  if (paid) await raise(trx, referrer.id, 'referral_bonus', { usd_micros: REFERRAL_BONUS });
  return paid;
}
