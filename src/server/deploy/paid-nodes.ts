import type { Transaction } from 'kysely';
import type { Database, Masternode } from '../db/schema';
import { chargeInitial, refuseWhileOwing } from '../billing/initial-charge';
import { checkUserNodeLimit } from './user-limit';
import { checkFreeCapacity, checkFreeNodeLimit, type FreeLimits } from './free-limits';

type NewNode = Pick<Masternode, 'id' | 'mn_id' | 'user_id' | 'hosting_price' | 'created_at' | 'alias'>;

/**
 * Every deploy's checks and charge around writing its nodes, inside its one transaction
 * and in this order: the account's node limit, no open debt (asked before the free limits:
 * a debtor is told of the debt, the cause), the free account's limit; then `write` makes
 * the nodes, the free servers' capacity is checked with them in place, and their first
 * day is charged. Any refusal rolls the nodes back with the transaction.
 */
export async function writePaidNodes<N extends NewNode>(
  trx: Transaction<Database>,
  limits: FreeLimits & { maxNodesPerUser: number },
  deploy: { userId: number; plan: 'dedicated' | 'cloud'; count: number },
  write: () => Promise<N[]>,
): Promise<N[]> {
  await checkUserNodeLimit(trx, deploy.userId, limits.maxNodesPerUser, deploy.count);
  await refuseWhileOwing(trx, deploy.userId);
  const free = await checkFreeNodeLimit(trx, deploy.userId, limits, deploy.count);
  const made = await write();
  if (free) await checkFreeCapacity(trx, deploy.plan, limits);
  await chargeInitial(trx, deploy.userId, made);
  return made;
}
