import type { HeldReferralBonusList } from '../../shared/schemas/console-referrals';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { payReferralBonus } from './bonus';
import { findReferralBonus, heldReferralBonuses, setReferralBonusStatus } from './queries';

/*
 * The operator's decisions on bonuses held for approval (over the 10-in-30-days cap, or
 * a card that could not be checked). Each decision is one transaction with its line in
 * the operator log; a bonus no longer waiting (decided, or cancelled by a refund) is
 * left alone and `changed` is false.
 */

export async function heldBonusList(db: DB): Promise<HeldReferralBonusList> {
  const rows = await heldReferralBonuses(db, 500);
  return {
    bonuses: rows.map(({ amount, created_at, matures_at, ...r }) => ({
      ...r,
      amount_micros: amount,
      created_at: new Date(created_at).toISOString(),
      matures_at: new Date(matures_at).toISOString(),
    })),
  };
}

const decidedBy = (by: OperatorActor) => (by.kind === 'operator' ? by.userId : null);

/**
 * Lets a held bonus follow the ordinary path: pending until 14 days after the deposit,
 * or paid at once when those are already over.
 */
export async function approveReferralBonus(
  db: DB,
  by: OperatorActor,
  id: number,
  now = Date.now(),
): Promise<{ changed: boolean; paid: boolean }> {
  if (!(await findReferralBonus(db, id))) fail('NOT_FOUND', `No referral bonus #${id}.`);
  return db.transaction().execute(async (trx) => {
    const b = await setReferralBonusStatus(trx, { id }, ['awaiting_approval'], 'pending', {
      decided_by: decidedBy(by),
      decided_at: now,
    });
    if (!b) return { changed: false, paid: false };
    const paid = b.matures_at <= now && (await payReferralBonus(trx, b.id));
    if (!paid) await insertEvent(trx, b.referrer_id, 'refresh_transactions', {});
    await logOperatorAction(trx, by, 'referral bonus approve', {
      bonus_id: b.id,
      referrer_id: b.referrer_id,
      referred_user_id: b.referred_user_id,
      amount: b.amount,
      paid,
    });
    return { changed: true, paid };
  });
}

/** Refuses a held bonus: it is never paid. */
export async function refuseReferralBonus(
  db: DB,
  by: OperatorActor,
  id: number,
  now = Date.now(),
): Promise<{ changed: boolean }> {
  if (!(await findReferralBonus(db, id))) fail('NOT_FOUND', `No referral bonus #${id}.`);
  return db.transaction().execute(async (trx) => {
    const b = await setReferralBonusStatus(trx, { id }, ['awaiting_approval'], 'refused', {
      reason: 'Refused by an operator.',
      decided_by: decidedBy(by),
      decided_at: now,
    });
    if (!b) return { changed: false };
    await insertEvent(trx, b.referrer_id, 'refresh_transactions', {});
    await logOperatorAction(trx, by, 'referral bonus refuse', {
      bonus_id: b.id,
      referrer_id: b.referrer_id,
      referred_user_id: b.referred_user_id,
      amount: b.amount,
    });
    return { changed: true };
  });
}
