import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Micros } from '../../shared/money';
import { assertMicros } from '../../shared/money';
import type { Database } from '../db/schema';

/** Ledger accounts are strings: one per user, plus the platform's own accounts. */
export const userAccount = (userId: number) => `user:${userId}`;
export const PLATFORM = {
  adjustments: 'platform:adjustments',
} as const;

export async function accountBalance(db: Kysely<Database>, account: string): Promise<Micros> {
  const row = await sql<{ balance: number | null }>`
    select (select coalesce(sum(amount), 0) from ledger_transfers where credit_account = ${account})
         - (select coalesce(sum(amount), 0) from ledger_transfers where debit_account = ${account}) as balance`.execute(db);
  return Number(row.rows[0]?.balance ?? 0);
}

export type TransferInput = {
  idempotencyKey: string;
  debit: string;
  credit: string;
  amount: Micros;
  kind: string;
  description: string;
  /** Refuse the transfer if it would take the debited account below zero. */
  debitMustStayNonNegative?: boolean;
};

export class InsufficientFunds extends Error {}

/**
 * Writes one immutable transfer. Must run inside a transaction (the balance check
 * and the insert are one step). Returns false when the idempotency key was already
 * used: the earlier transfer stands and nothing changes.
 */
export async function postTransfer(trx: Kysely<Database>, t: TransferInput): Promise<boolean> {
  assertMicros(t.amount);
  if (t.amount <= 0) throw new RangeError('transfer amount must be positive');
  const seen = await trx.selectFrom('ledger_transfers').select('id').where('idempotency_key', '=', t.idempotencyKey).executeTakeFirst();
  if (seen) return false;
  if (t.debitMustStayNonNegative && (await accountBalance(trx, t.debit)) < t.amount) {
    throw new InsufficientFunds(`account ${t.debit} has less than the amount`);
  }
  await trx
    .insertInto('ledger_transfers')
    .values({
      idempotency_key: t.idempotencyKey,
      debit_account: t.debit,
      credit_account: t.credit,
      amount: t.amount,
      kind: t.kind,
      description: t.description,
      created_at: Date.now(),
    })
    .execute();
  return true;
}
