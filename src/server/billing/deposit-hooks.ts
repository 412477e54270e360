import type { Micros } from '../../shared/money';
import type { MoneyTx } from './ledger';

/** A deposit just credited: its transfer, and the card that paid (null for crypto). */
export type CreditedDeposit = {
  userId: number;
  depositTransferId: number;
  amount: Micros;
  /** A card payment's card (fingerprint null: Stripe did not say); null for crypto. */
  card: { fingerprint: string | null } | null;
};

type CreditedHook = (trx: MoneyTx, d: CreditedDeposit) => Promise<unknown>;
type ReversedHook = (trx: MoneyTx, depositTransferId: number, reason: 'refunded' | 'disputed') => Promise<unknown>;

/**
 * What other domains do when a deposit is credited or (a card payment) taken back, in the
 * money transaction that does it, at that point of it: referrals hold or cancel the
 * referrer's bonus. Billing imports none of them (no folder cycle): the composition root
 * (src/server/domain-hooks.ts) registers them, in the order they run.
 */
const credited: CreditedHook[] = [];
const reversed: ReversedHook[] = [];

export function onDepositCredited(hook: CreditedHook): void {
  credited.push(hook);
}

export function onDepositReversed(hook: ReversedHook): void {
  reversed.push(hook);
}

/** Runs every registered hook, after the deposit's credit and the debt it paid. */
export async function depositCredited(trx: MoneyTx, d: CreditedDeposit): Promise<void> {
  // None registered means domain-hooks.ts was never loaded: money would be skipped silently.
  if (credited.length === 0) throw new Error('deposit hooks are not wired (import src/server/domain-hooks.ts)');
  for (const hook of credited) await hook(trx, d);
}

/** Runs every registered hook, after the money went back (any part of it). */
export async function depositReversed(
  trx: MoneyTx,
  depositTransferId: number,
  reason: 'refunded' | 'disputed',
): Promise<void> {
  if (reversed.length === 0) throw new Error('deposit hooks are not wired (import src/server/domain-hooks.ts)');
  for (const hook of reversed) await hook(trx, depositTransferId, reason);
}
