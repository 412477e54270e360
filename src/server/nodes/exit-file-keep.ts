import type { Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { daemonOf, stopNode } from './daemon-access';
import { hasExitFile, keepExitFile } from './exit-files';
import type { FleetDeps } from './fleet-deps';
import { exitInterchange, readHeadSlot, validatorPubkeyOf } from './validator-exit';

/**
 * The control loop's step before it destroys a validator, whoever asked (its owner, the
 * daily charge for unpaid fees, an operator): the validator is stopped and its EIP-3076
 * file kept for the owner (exit-files.ts). Throws when the node cannot be stopped: the
 * destroy then waits and is tried again, as any engine failure.
 */
export async function keepExitFileBeforeDestroy(
  d: Pick<FleetDeps, 'db' | 'hub' | 'log' | 'engines' | 'profiles'>,
  node: Masternode,
): Promise<void> {
  const pubkey = validatorPubkeyOf(node);
  if (!pubkey || (await hasExitFile(d.db, node.mn_id))) return;
  // Being deleted but still placed: its beacon node answers until the engine removes it.
  const head = await readHeadSlot(() => daemonOf(d, { ...node, state: 'live' }), node, d.log);
  await stopNode(d, node);
  await d.db.transaction().execute(async (trx) => {
    await keepExitFile(trx, node, pubkey, exitInterchange(node.coin_id, pubkey, head));
    await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
  });
  void d.hub.poke();
  d.log.info('validator stopped; its slashing-protection file is kept for its owner', { node: node.mn_id });
}
