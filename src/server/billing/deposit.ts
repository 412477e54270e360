import type { Micros } from '../../shared/money';
import { payDebt } from './debt';
import { depositCredited } from './deposit-hooks';
import type { MoneyTx } from './ledger';
import { PLATFORM, postTransfer, userAccount } from './ledger';

export type DepositInput = {
  userId: number;
  amount: Micros;
  /** Unique per deposit (`crypto:<currency>:<txid>:<vout>`, `card:<session id>`): the one credit it gets. */
  idempotencyKey: string;
  description: string;
  meta?: Record<string, unknown>;
} & (
  | {
      via: 'card';
      /** The card that paid: its Stripe fingerprint, null when Stripe did not say (the referral bonus then waits for the operator). Required, so no card payment skips the card checks. */
      card: { fingerprint: string | null };
    }
  | { via: 'crypto' }
);

/**
 * Credits money that came in (crypto or card) to the user's balance, once per key, pays
 * the user's open debt from it first (debt.ts), and holds the referral bonus when it is
 * the user's first deposit (paid 14 days later). In the caller's money transaction, so
 * the credit, the debt payment, the bonus and whatever the caller marks (the deposit row,
 * the session) commit together or not at all. Returns false when the key was credited
 * before. The caller raises its own notification (`deposit_credited`, `card_payment_credited`).
 */
export async function creditDeposit(trx: MoneyTx, d: DepositInput): Promise<boolean> {
  const credited = await postTransfer(trx, {
    idempotencyKey: d.idempotencyKey,
    debit: d.via === 'crypto' ? PLATFORM.crypto : PLATFORM.card,
    credit: userAccount(d.userId),
    amount: d.amount,
    kind: d.via === 'crypto' ? 'crypto_deposit' : 'card_payment',
    description: d.description,
    meta: d.meta,
  });
  if (!credited) return false;
  // An open debt (a card payment taken back) is paid first, from this money, in this transaction.
  await payDebt(trx, d.userId, d.amount, `debt_payment:${d.idempotencyKey}`);
  const row = await trx
    .selectFrom('ledger_transfers')
    .select('id')
    .where('idempotency_key', '=', d.idempotencyKey)
    .executeTakeFirstOrThrow();
  // Referrals hold the referrer's bonus here (registered by the composition root).
  await depositCredited(trx, {
    userId: d.userId,
    depositTransferId: row.id,
    amount: d.amount,
    card: d.via === 'card' ? d.card : null,
  });
  return true;
}
