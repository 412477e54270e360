import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { fail } from '../kernel/errors';
import { isPaying, payingUsers, PAYING_MINIMUM } from '../billing/paying';
import { usd } from '../../shared/notification-kinds';
import { chargedNodesByOwner, countChargedNodes, planSlots } from '../nodes/read';

/**
 * What a free account may run: one whose paid deposits (crypto or card), net of card
 * refunds and disputes, come to less than PAYING_MINIMUM (billing/queries.ts). Without these,
 * ten new accounts on sign-up credit filled all 1,000 cloud slots (100 Satori neurons
 * each) and every paying customer after them got "no capacity". Both checks run in the
 * deploy's transaction (BEGIN IMMEDIATE: SQLite's one writer), so racing deploys, from
 * one account or many, see each other's nodes, and a refund posted meanwhile counts.
 */
// Says which money counts: sign-up credit, gift codes and operator credits raise the
// balance but not this sum, so "add funds" alone sent a customer with $30 of gift credit
// to a Billing page that could not lift the limit.
const UNPAID = `Accounts whose crypto and card deposits come to less than ${usd(PAYING_MINIMUM)}`;
const DEPOSIT = 'Deposit by crypto or card in Billing';

export const freeNodeLimitReached = (limit: number) =>
  limit === 0
    ? `${UNPAID} cannot run nodes. ${DEPOSIT} to deploy.`
    : `${UNPAID} can run ${limit} node${limit === 1 ? '' : 's'} at a time. ${DEPOSIT} to deploy more.`;

export const FREE_CAPACITY_FULL = `The servers set aside for ${UNPAID.toLowerCase()} are full right now. ${DEPOSIT} to deploy, or try again later.`;

export type FreeLimits = { freeNodeLimit: number; freeCapacityBasisPoints: number };

/** Before the nodes are written: a free account past FREE_NODE_LIMIT is refused whole. Returns whether the account is free. */
export async function checkFreeNodeLimit(trx: Kysely<Database>, userId: number, limits: FreeLimits, adding: number): Promise<boolean> {
  if (await isPaying(trx, userId)) return false;
  if ((await countChargedNodes(trx, userId)) + adding > limits.freeNodeLimit) fail('FORBIDDEN', freeNodeLimitReached(limits.freeNodeLimit));
  return true;
}

/**
 * After the nodes are written (so they count, and the fleet's own "no capacity" answer
 * comes first): the charged nodes of all free accounts on this plan stay within
 * FREE_CAPACITY_SHARE of the plan's slots, rounded down. Throwing rolls the deploy back.
 */
export async function checkFreeCapacity(trx: Kysely<Database>, plan: 'dedicated' | 'cloud', limits: FreeLimits): Promise<void> {
  const allowed = Math.floor(((await planSlots(trx, plan)) * limits.freeCapacityBasisPoints) / 10_000);
  const owners = await chargedNodesByOwner(trx, plan);
  const paid = await payingUsers(trx, owners.map((o) => o.user_id));
  const free = owners.reduce((sum, o) => (paid.has(o.user_id) ? sum : sum + o.n), 0);
  if (free > allowed) fail('FORBIDDEN', FREE_CAPACITY_FULL);
}
