import type { DaemonFacts } from '../fleet/daemon-facts';
import { offersOf } from '../coins/offer';
import { randomBytes } from 'node:crypto';
import { currentPrices } from '../coins/prices';
import { coinDetails, findCoin } from '../coins/catalog';
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../db/open';
import type { Database, Masternode, NodesTable } from '../db/schema';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import { clearDestroyedNodeNotifications } from '../notifications/node-alerts';
import type { Logger } from '../kernel/log';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { findNodeById, insertNodeRow, transition } from './repository';
import { simulatorProfileId, type DaemonProfile } from '../fleet/profiles';
import { freeSlots } from './placement';
import { hostUsage, listHosts, unplacedCounts, updatePlacement } from './fleet-queries';

type Q = Kysely<Database>;

export const FLEET_FULL =
  'No server capacity is free for this plan right now. Please try again later or contact support.';

export function profileFor(
  profiles: Record<string, DaemonProfile>,
  family: string,
  named?: string,
): { id: string; profile: DaemonProfile } {
  const id = named ?? simulatorProfileId(family);
  const profile = profiles[id];
  if (!profile) throw new Error(`daemon profile ${id} is not in catalog/daemons.json`);
  return { id, profile };
}

export type RequestDeps = {
  profiles: Record<string, DaemonProfile>;
  /** What each profile's source says: in production only a verified profile is offered. */
  facts?: Record<string, DaemonFacts>;
  log: Logger;
  /** FLEET_SIMULATOR */ simulator: boolean;
};

/**
 * What a deploy keeps on each node it asks for (customer fields; see NodesTable). A deploy
 * that seals secrets for the node names its id first (`newNodeId`), since the sealed value
 * is bound to it; otherwise one is made here.
 */
export type NodeFields = Partial<
  Pick<
    Insertable<NodesTable>,
    | 'mn_id'
    | 'alias'
    | 'entry'
    | 'payee'
    | 'output_text'
    | 'secrets'
    | 'validator_pubkey'
    | 'fee_recipient'
    | 'deploy_id'
  >
>;

export const newNodeId = (coinId: string) => `${coinId}-${randomBytes(5).toString('hex')}`;

/** The coin, if it can take a new node of this plan now; else the customer's reason. */
export async function checkDeployable(db: Q, deps: RequestDeps, coinId: string, plan: 'dedicated' | 'cloud') {
  const coin = await findCoin(db, coinId);
  if (!coin) fail('NOT_FOUND', `Unknown coin "${coinId}".`);
  if (coin.delisted) fail('BAD_REQUEST', `${coin.label} is delisted: new nodes cannot be deployed.`);
  if (coin.maintenance)
    fail(
      'BAD_REQUEST',
      "Deployments of this project's nodes are temporarily disabled due to maintenance. Please check back later.",
    );
  if (plan === 'cloud' && !coin.cloud) fail('BAD_REQUEST', `${coin.label} has no cloud plan; choose Dedicated.`);
  const { id: profileId, profile } = profileFor(deps.profiles, coin.family, coinDetails(coin).daemon);
  const offer = (await offersOf(db, [coin], { facts: {}, ...deps })).get(coin.id)!;
  if (!offer.offered) {
    deps.log.warn('deploy refused: the coin is not offered', {
      coin: coin.id,
      profile: profileId,
      missing: offer.missing,
    });
    fail('SERVICE_UNAVAILABLE', offer.reason);
  }
  return { coin, profileId, profile };
}

/**
 * Asks for nodes: checks the coin and plan and records them as `requested`, in the
 * caller's transaction. The server's control loop places them on hosts with a free
 * slot and address:port, and starts them (so this also works from the operator's CLI,
 * another process). A placement that finds no room fails the node with FLEET_FULL.
 */
export async function requestNodes(
  trx: Q,
  deps: RequestDeps,
  input: { userId: number; coinId: string; plan: 'dedicated' | 'cloud'; nodes: NodeFields[] },
): Promise<Masternode[]> {
  const { coin, profile } = await checkDeployable(trx, deps, input.coinId, input.plan);
  // Refused at once when the fleet cannot take them all; placement (the control loop)
  // still decides where, and fails a node that lost a race for the last slot.
  const free =
    freeSlots(await listHosts(trx), await hostUsage(trx), input.plan, profile, deps.profiles) -
    (await unplacedCounts(trx))[input.plan];
  if (free < input.nodes.length) {
    deps.log.warn('fleet full: no host can take the nodes', {
      coin: coin.id,
      plan: input.plan,
      asked: input.nodes.length,
      free,
    });
    fail('SERVICE_UNAVAILABLE', FLEET_FULL);
  }
  const prices = currentPrices(coin);
  const now = Date.now();
  const out: Masternode[] = [];
  for (const fields of input.nodes) {
    const { id } = await insertNodeRow(trx, {
      ...fields,
      mn_id: fields.mn_id ?? newNodeId(coin.id),
      user_id: input.userId,
      coin_id: coin.id,
      package: input.plan,
      created_at: now,
      hosting_price: input.plan === 'cloud' ? (prices.cloud ?? prices.dedicated) : prices.dedicated,
      simulated: profile.run === 'simulator' ? 1 : 0,
    });
    out.push((await findNodeById(trx, id))!);
  }
  await insertEvent(trx, input.userId, 'refresh_queue', {});
  await insertEvent(trx, input.userId, 'refresh_masternodes', {});
  deps.log.info('nodes requested', {
    coin: coin.id,
    plan: input.plan,
    user_id: input.userId,
    nodes: out.map((n) => n.mn_id),
  });
  return out;
}

/** One node, in a transaction of its own (the operator's CLI). */
export async function requestNode(
  db: DB,
  deps: RequestDeps,
  input: { userId: number; coinId: string; plan: 'dedicated' | 'cloud' },
  fields: NodeFields = {},
): Promise<Masternode> {
  const [node] = await db.transaction().execute((trx) => requestNodes(trx, deps, { ...input, nodes: [fields] }));
  return node;
}

/** Marks a node deleting; the control loop destroys it on its engine. False: it was already going. */
export async function requestDestroy(
  db: DB,
  node: Masternode,
  by: OperatorActor,
  reason: string | null = null,
): Promise<boolean> {
  return db.transaction().execute((trx) => markDestroy(trx, node, by, reason));
}

/**
 * `requestDestroy` in the caller's transaction (the daily charge destroys unpaid nodes in
 * the chunk that found them unpaid). `deletedAt`: when its charges stop (default now).
 */
export async function markDestroy(
  trx: Q,
  node: Pick<Masternode, 'id' | 'mn_id' | 'user_id'>,
  by: OperatorActor,
  reason: string | null,
  deletedAt = Date.now(),
): Promise<boolean> {
  const to = await transition(trx, node.id, 'delete', { deleted_at: deletedAt, delete_reason: reason });
  if (!to) return false;
  // Destroyed at once, whatever backoff an earlier engine failure left.
  await updatePlacement(trx, node.id, { attempts: 0, next_attempt_at: null });
  await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
  await insertEvent(trx, node.user_id, 'refresh_queue', {});
  await clearDestroyedNodeNotifications(trx, node);
  await logOperatorAction(trx, by, 'node destroy', { node: node.mn_id, reason });
  return true;
}

/** Asks the control loop for a restart; returns when it was asked (its answer comes after). */
export async function requestRestart(db: DB, node: Masternode, by: OperatorActor): Promise<number> {
  const at = Date.now();
  await db.transaction().execute(async (trx) => {
    await updatePlacement(trx, node.id, { restart_requested_at: at });
    await logOperatorAction(trx, by, 'node restart', { node: node.mn_id });
  });
  return at;
}

/** Housekeeping's end of the lifecycle: destroyed nodes past retention are deleted for good. */
export { pruneDestroyedNodes } from './repository';

/** Housekeeping: destroyed validators' slashing-protection files past their 30 days. */
export { pruneExitFiles } from './exit-files';
