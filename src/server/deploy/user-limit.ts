import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { fail } from '../kernel/errors';
import { countUserNodes } from '../nodes/read';

/**
 * One account's share of the fleet (MAX_NODES_PER_USER). Without it one customer could
 * fill every slot (two Satori deploys of 50 did, on a 100-slot host) and every other
 * customer's deploy answered "no capacity". Checked inside the deploy's transaction
 * (SQLite's one writer), so racing deploys of the same user cannot pass it together.
 */
export const nodeLimitReached = (max: number) =>
  `You can have at most ${max} nodes on this account. Please delete a node you no longer need, or contact support to raise the limit.`;

export async function checkUserNodeLimit(trx: Kysely<Database>, userId: number, max: number, adding: number) {
  if ((await countUserNodes(trx, userId)) + adding > max) fail('FORBIDDEN', nodeLimitReached(max));
}
