import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import { debtOpen, openDebt } from './debt';
import { dayOf, initialChargeAmount, initialChargeKey, usdCeil } from './charge-days';
import { remindIfLow } from './runway';
import { InsufficientFunds, PLATFORM, balanceChanged, postTransfer, userAccount, type MoneyTx } from './ledger';

type NewNode = Pick<Masternode, 'id' | 'mn_id' | 'user_id' | 'hosting_price' | 'created_at' | 'alias'>;

export const notCovered = (count: number, amount: number) =>
  `Your balance does not cover ${count === 1 ? "this node's" : `these ${count} nodes'`} first day of hosting (${usdCeil(amount)}). Add funds on the Billing page.`;

/**
 * No deploy while the user owes a debt. Read in the deploy's transaction: a reversal
 * landing meanwhile is seen by one or the other. Deploys ask it before the free limits
 * too: a debtor whose refund made the account free is told of the debt, the cause.
 */
export async function refuseWhileOwing(trx: MoneyTx, userId: number): Promise<void> {
  const owed = await openDebt(trx, userId);
  if (owed > 0) fail('BAD_REQUEST', debtOpen(owed));
}

/**
 * Charges each new node the rest of its first UTC day, in the transaction that creates
 * it, so a node never exists unpaid. When the balance cannot cover them all, the deploy
 * is refused (a domain error) and the caller's transaction, the nodes with it, rolls back:
 * the ledger's CHECK decides, so 100 deploys at once cannot overdraw the balance. While
 * the user owes a debt (debt.ts), no node is deployed at all.
 */
export async function chargeInitial(trx: MoneyTx, userId: number, nodes: NewNode[]): Promise<void> {
  await refuseWhileOwing(trx, userId);
  const amounts = nodes.map((n) => initialChargeAmount(n.hosting_price, n.created_at));
  let charged = false;
  try {
    for (const [i, n] of nodes.entries()) {
      if (amounts[i] <= 0) continue; // a free node, or one made in the day's last microseconds
      charged =
        (await postTransfer(trx, {
          idempotencyKey: initialChargeKey(n.id),
          debit: userAccount(userId),
          credit: PLATFORM.revenue,
          amount: amounts[i],
          kind: 'initial_charge',
          description: `Initial Charge: ${n.alias ?? n.mn_id} (${dayOf(n.created_at)})`,
          meta: { node_id: n.id, mn_id: n.mn_id, daily_price: n.hosting_price, from: n.created_at },
          quiet: true,
        })) || charged;
    }
  } catch (err) {
    if (err instanceof InsufficientFunds)
      fail(
        'BAD_REQUEST',
        notCovered(
          nodes.length,
          amounts.reduce((a, b) => a + b, 0),
        ),
      );
    throw err;
  }
  if (charged) await balanceChanged(trx, userId);
  // More fees, less balance: the runway may now be short (reminders.ts, runway.ts).
  if (nodes.length) await remindIfLow(trx, userId, Date.now());
}
