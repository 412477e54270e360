import type { Micros } from '../../shared/money';
import { MICROS_PER_USD } from '../../shared/money';
import { findUserById, knownAddresses, usernamesByIds } from '../auth/users';
import { cardUsedBy, otherCardPayers, shareACard } from '../billing/cards';
import { takeBack } from '../billing/debt';
import { firstDepositTransferId } from '../billing/transfers';
import type { MoneyTx } from '../billing/ledger';
import { PLATFORM, postTransfer, userAccount } from '../billing/ledger';
import type { ReferralBonus } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { raise } from '../notifications/raise';
import { shareAnAddress } from './addresses';
import {
  anyReferredBy,
  findReferralBonus,
  insertReferralBonus,
  recentBonusCount,
  setReferralBonusStatus,
} from './queries';

/** $10 to the referrer when the referred user's first deposit is at least $10 (section 9). */
export const REFERRAL_BONUS: Micros = 10 * MICROS_PER_USD;
export const REFERRAL_MIN_DEPOSIT: Micros = 10 * MICROS_PER_USD;

const DAY_MS = 86_400_000;
/** A bonus is held this long after the deposit, so a refund or dispute of it can still cancel it. */
export const BONUS_HOLD_MS = 14 * DAY_MS;
/** Bonuses one referrer gets per window without the operator's approval. */
export const BONUS_CAP = 10;
export const BONUS_CAP_WINDOW_MS = 30 * DAY_MS;

/** Why a bonus waits for the operator or was refused (the console shows these). */
export const BONUS_REASONS = {
  sharedAddress: 'The referred account and the referrer share a registration or login address.',
  referrerCard: 'The deposit was paid with a card the referrer has used.',
  cardOfAnotherReferred:
    "The deposit was paid with a card that already paid another referred account's first deposit for this referrer.",
  referrerDisabled: 'The referrer was disabled before the bonus matured.',
  referredDisabled: 'The referred account was disabled before the bonus matured.',
  sharedCard: 'The referred account and the referrer have paid with the same card.',
  cardUnknown: 'The card of the deposit could not be checked (the payment provider did not say).',
  overCap: `The referrer already has ${BONUS_CAP} bonuses in 30 days.`,
} as const;

export type HoldInput = {
  userId: number;
  depositTransferId: number;
  amount: Micros;
  /** A card payment's card (fingerprint null: Stripe did not say); null for crypto. */
  card: { fingerprint: string | null } | null;
};

/**
 * Called in the transaction that credits a deposit, after its transfer: when this was
 * the user's first deposit (crypto or card; gift codes and credits are not deposits), it
 * was at least $10 and the user came through a referral link of another active user,
 * the referrer's bonus is written down, and no money moves yet:
 * - refused when the two accounts share an address or the deposit's card is one the
 *   referrer paid with (one person's accounts);
 * - awaiting the operator when the card could not be checked, or the referrer already
 *   has BONUS_CAP bonuses in 30 days (counted in this transaction, which holds SQLite's
 *   one write lock, so 100 deposits at once still let exactly BONUS_CAP through);
 * - else pending, paid by `matureReferralBonuses` 14 days after the deposit.
 * One row per referred user, ever: replays, races and later deposits add nothing.
 * Returns the status written, or null when no bonus applies.
 */
export async function holdReferralBonus(
  trx: MoneyTx,
  d: HoldInput,
  now = Date.now(),
): Promise<ReferralBonus['status'] | null> {
  if (d.amount < REFERRAL_MIN_DEPOSIT) return null;
  if ((await firstDepositTransferId(trx, d.userId)) !== d.depositTransferId) return null;
  const user = await findUserById(trx, d.userId);
  // The referrer as resolved at registration (a code is the referrer's username, any
  // case): the account that existed then, never one that took the name later.
  if (user?.referrer_id == null) return null;
  const referrer = await findUserById(trx, user.referrer_id);
  if (!referrer || referrer.id === d.userId || referrer.disabled_at !== null) return null;

  const { status, reason } = await verdict(trx, d, referrer.id, now);
  const written = await insertReferralBonus(trx, {
    referred_user_id: d.userId,
    referrer_id: referrer.id,
    deposit_transfer_id: d.depositTransferId,
    amount: REFERRAL_BONUS,
    status,
    reason,
    created_at: now,
    matures_at: now + BONUS_HOLD_MS,
  });
  if (!written) return null;
  // The referrer's affiliate page shows the held bonus (a refused one is not shown).
  if (status !== 'refused') await insertEvent(trx, referrer.id, 'refresh_transactions', {});
  return status;
}

/** What a new bonus starts as, and why (see holdReferralBonus). */
async function verdict(
  trx: MoneyTx,
  d: HoldInput,
  referrerId: number,
  now: number,
): Promise<{ status: ReferralBonus['status']; reason: string | null }> {
  if (shareAnAddress(await knownAddresses(trx, d.userId), await knownAddresses(trx, referrerId)))
    return { status: 'refused', reason: BONUS_REASONS.sharedAddress };
  if (d.card?.fingerprint && (await cardUsedBy(trx, referrerId, d.card.fingerprint)))
    return { status: 'refused', reason: BONUS_REASONS.referrerCard };
  // One card paying the first deposits of several referred accounts is one payer: only the first earns.
  if (
    d.card?.fingerprint &&
    (await anyReferredBy(trx, referrerId, await otherCardPayers(trx, d.card.fingerprint, d.userId)))
  ) {
    return { status: 'refused', reason: BONUS_REASONS.cardOfAnotherReferred };
  }
  if (d.card && !d.card.fingerprint) return { status: 'awaiting_approval', reason: BONUS_REASONS.cardUnknown };
  if ((await recentBonusCount(trx, referrerId, now - BONUS_CAP_WINDOW_MS)) >= BONUS_CAP)
    return { status: 'awaiting_approval', reason: BONUS_REASONS.overCap };
  return { status: 'pending', reason: null };
}

/**
 * Why a bonus about to be paid must not be, judged again on what the database knows now
 * (no network call: it runs in the paying transaction): an account disabled meanwhile,
 * or logins and card payments of the 14 days that now link the two accounts.
 */
async function refusalAtMaturity(trx: MoneyTx, referrerId: number, referredId: number): Promise<string | null> {
  const [referrer, referred] = [await findUserById(trx, referrerId), await findUserById(trx, referredId)];
  if (!referrer || referrer.disabled_at !== null) return BONUS_REASONS.referrerDisabled;
  if (!referred || referred.disabled_at !== null) return BONUS_REASONS.referredDisabled;
  if (shareAnAddress(await knownAddresses(trx, referredId), await knownAddresses(trx, referrerId)))
    return BONUS_REASONS.sharedAddress;
  if (await shareACard(trx, referredId, referrerId)) return BONUS_REASONS.sharedCard;
  return null;
}

/**
 * Pays a pending bonus: the checks are run again (refusalAtMaturity; a failing one
 * refuses the bonus with its reason), then the row becomes paid and the ledger transfer
 * `referral-bonus:<referred user id>` is posted, in the caller's transaction; the
 * referrer is told. False when the row was no longer pending (paid, cancelled) meanwhile,
 * or was refused now.
 */
export async function payReferralBonus(trx: MoneyTx, bonusId: number): Promise<boolean> {
  const pending = await findReferralBonus(trx, bonusId);
  if (pending?.status !== 'pending') return false;
  const refusal = await refusalAtMaturity(trx, pending.referrer_id, pending.referred_user_id);
  if (refusal) {
    if (await setReferralBonusStatus(trx, { id: bonusId }, ['pending'], 'refused', { reason: refusal }))
      await insertEvent(trx, pending.referrer_id, 'refresh_transactions', {});
    return false;
  }
  const b = await setReferralBonusStatus(trx, { id: bonusId }, ['pending'], 'paid');
  if (!b) return false;
  const user = await findUserById(trx, b.referred_user_id);
  const paid = await postTransfer(trx, {
    idempotencyKey: `referral-bonus:${b.referred_user_id}`,
    debit: PLATFORM.referrals,
    credit: userAccount(b.referrer_id),
    amount: b.amount,
    kind: 'referral_bonus',
    description: `Referral bonus: ${user?.username ?? 'a referred user'}'s first deposit`,
    meta: { referred_user_id: b.referred_user_id, deposit_transfer_id: b.deposit_transfer_id, bonus_id: b.id },
  });
  if (paid) await raise(trx, b.referrer_id, 'referral_bonus', { usd_micros: b.amount });
  return paid;
}

/**
 * Cancels the bonus earned by this deposit transfer, because the deposit was refunded or
 * disputed. In the caller's transaction (the refund's). A bonus not paid yet (pending or
 * awaiting approval) is simply cancelled. One already paid (the hold is 14 days; a card
 * dispute can come months later) is taken back from the referrer's balance, and what the
 * balance does not cover becomes their debt, as for a card payment taken back. A refused
 * or already cancelled bonus is left as it is. Returns whether a bonus was cancelled.
 */
export async function cancelReferralBonus(
  trx: MoneyTx,
  depositTransferId: number,
  reason: 'refunded' | 'disputed',
): Promise<boolean> {
  const why =
    reason === 'refunded' ? 'The deposit that earned it was refunded.' : 'The deposit that earned it was disputed.';
  const held = await setReferralBonusStatus(trx, { depositTransferId }, ['pending', 'awaiting_approval'], 'cancelled', {
    reason: why,
  });
  if (held) {
    await insertEvent(trx, held.referrer_id, 'refresh_transactions', {});
    return true;
  }
  const paid = await setReferralBonusStatus(trx, { depositTransferId }, ['paid'], 'cancelled', {
    reason: `${why} The paid bonus was taken back.`,
  });
  if (!paid) return false;
  const referred = (await usernamesByIds(trx, [paid.referred_user_id])).get(paid.referred_user_id) ?? 'a referred user';
  await takeBack(trx, {
    userId: paid.referrer_id,
    amount: paid.amount,
    idempotencyKey: `referral-bonus-back:${paid.referred_user_id}`,
    kind: 'referral_bonus_reversed',
    credit: PLATFORM.referrals,
    description: `Referral bonus taken back: ${referred}'s deposit was ${reason}`,
    meta: { referred_user_id: paid.referred_user_id, deposit_transfer_id: depositTransferId },
  });
  return true;
}
