import { formatUsdExact, type Micros } from '../../shared/money';
import { idempotencyKey } from '../../shared/schemas/console-customers';
import { findUserById } from '../auth/users';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { accountBalance, InsufficientFunds, PLATFORM, postTransfer, userAccount } from './ledger';
import { findTransferByKey } from './queries';
import { remindIfLow } from './runway';

export type Adjustment = { userId: number; amount: Micros; reason: string; key: string };
export type AdjustResult = { applied: boolean; balance: Micros; username: string };

const MAX = 10_000_000_000; // $10,000 either way: a typo's reach

/**
 * The operator's correction of a balance (CLI `billing adjust`, the console's Customers
 * page): an ordinary ledger transfer against the adjustments account, with the reason
 * as the line the customer reads. The caller's `key` makes it idempotent: the console's
 * form makes one when it opens, so a double submit (or 100) posts one transfer and
 * writes one log line. Keys live under `operator-adjust:`, so no operator key can
 * collide with (and so block) a deposit's, a charge's or a gift code's.
 */
export async function adjustBalance(db: DB, by: OperatorActor, a: Adjustment): Promise<AdjustResult> {
  if (!Number.isSafeInteger(a.amount) || a.amount === 0) fail('BAD_REQUEST', 'The amount must not be zero.', 'amount');
  if (Math.abs(a.amount) > MAX) fail('BAD_REQUEST', 'The amount must be at most $10000 either way.', 'amount');
  const reason = a.reason.trim();
  if (!reason || reason.length > 200)
    fail(
      'BAD_REQUEST',
      'A reason of at most 200 characters is required (the customer sees it in their history).',
      'reason',
    );
  if (!idempotencyKey.safeParse(a.key).success)
    fail('BAD_REQUEST', 'The key must be 1-100 letters, digits or . : _ -.', 'key');
  const user = await findUserById(db, a.userId);
  if (!user) fail('NOT_FOUND', `No customer #${a.userId}.`);
  const key = `operator-adjust:${a.key}`;
  const credit = a.amount > 0;
  const transfer = {
    idempotencyKey: key,
    debit: credit ? PLATFORM.adjustments : userAccount(user.id),
    credit: credit ? userAccount(user.id) : PLATFORM.adjustments,
    amount: Math.abs(a.amount),
    kind: 'adjustment' as const,
    description: reason,
  };
  let applied: boolean;
  try {
    applied = await db.transaction().execute(async (trx) => {
      if (!(await postTransfer(trx, transfer))) {
        // The key was used: the same adjustment again is fine, another one is a mistake.
        const earlier = await findTransferByKey(trx, key);
        if (
          !earlier ||
          earlier.debit_account !== transfer.debit ||
          earlier.credit_account !== transfer.credit ||
          earlier.amount !== transfer.amount
        ) {
          fail('CONFLICT', 'This key was already used for a different adjustment; nothing was changed.', 'key');
        }
        return false;
      }
      // An operator's debit shortens the runway like any other.
      if (!credit) await remindIfLow(trx, user.id, Date.now());
      await logOperatorAction(trx, by, 'billing adjust', {
        user_id: user.id,
        username: user.username,
        amount: a.amount,
        reason,
        key: a.key,
      });
      return true;
    });
  } catch (err) {
    if (err instanceof InsufficientFunds)
      fail(
        'BAD_REQUEST',
        `${user.username}'s balance is lower than the debit of $${formatUsdExact(Math.abs(a.amount))}.`,
        'amount',
      );
    throw err;
  }
  return { applied, balance: await accountBalance(db, userAccount(user.id)), username: user.username };
}
