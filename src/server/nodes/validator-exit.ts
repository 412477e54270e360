import type { Context } from '../rpc/context';
import type { Masternode } from '../db/schema';
import type { DaemonAccess } from '../fleet/access';
import type { Logger } from '../kernel/log';
import { nodeDaemon } from './daemon-calls';
import { validatorOutput } from './output-read';
import { MAINNET_GENESIS_VALIDATORS_ROOT, slashingProtectionInterchange } from './slashing-protection';

/**
 * Chains our validators run on: slot time, slots per epoch, genesis, genesis validators root.
 * Gnosis Beacon Chain: 5 s slots, 16 per epoch.
 */
const CHAINS: Record<string, { slotS: number; perEpoch: number; genesisS: number; root: string }> = {
  eth: { slotS: 12, perEpoch: 32, genesisS: 1_606_824_023, root: MAINNET_GENESIS_VALIDATORS_ROOT },
  gno: {
    slotS: 5,
    perEpoch: 16,
    genesisS: 1_638_993_340,
    root: '0xf5dcb5564e829aab27264b9becd5dfaa017085611224cb3036f573368dbb9d47',
  },
};

/**
 * Slots added to the last slot the node could have seen: what it signed between our look
 * and its stop is inside this margin. Two epochs: the next client waits ~13 minutes on
 * Ethereum before it signs, and can never sign anything conflicting.
 */
const MARGIN_EPOCHS = 2;

/** The validator's BLS public key, or undefined for a node that is no validator. */
export const validatorPubkeyOf = (n: Pick<Masternode, 'validator_pubkey' | 'output_text'>) =>
  n.validator_pubkey ?? validatorOutput(n.output_text)?.pubkey;

/** The newest slot the node's beacon node has seen, or null when it does not answer (it may be gone). */
export async function readHeadSlot(
  daemon: () => Promise<DaemonAccess | null>,
  n: Pick<Masternode, 'mn_id'>,
  log: Logger,
): Promise<number | null> {
  try {
    const d = await daemon();
    return d ? await nodeDaemon(d, n.mn_id, 3_000).headSlot() : null;
  } catch (err) {
    log.warn('validator head slot unreadable; wall clock used', { node: n.mn_id, err });
    return null;
  }
}

/**
 * The EIP-3076 interchange (JSON text) of a validator that no longer signs. We keep no
 * signing history of our own, so the file records, as signed, the newest slot and epoch the
 * node could have reached (its beacon head, or the wall clock when unreadable) plus a
 * margin: the minimal form of the EIP, safe by construction. Call it only once the node is
 * stopped. See src/server/nodes/README.md.
 */
export function exitInterchange(coinId: string, pubkey: string, headSlot: number | null, now = Date.now()): string {
  const chain = CHAINS[coinId] ?? CHAINS.eth;
  const wall = Math.max(0, Math.floor((now / 1000 - chain.genesisS) / chain.slotS));
  const upTo = Math.max(wall, headSlot ?? 0) + MARGIN_EPOCHS * chain.perEpoch;
  const epoch = Math.floor(upTo / chain.perEpoch);
  const file = slashingProtectionInterchange({
    pubkey,
    genesisValidatorsRoot: chain.root,
    lastBlockSlot: upTo,
    lastSourceEpoch: epoch,
    lastTargetEpoch: epoch,
  });
  return JSON.stringify(file, null, 2);
}

/** Stops the validator, then answers its EIP-3076 interchange (JSON text); undefined for a node that is no validator. */
export async function validatorExitFile(
  ctx: Pick<Context, 'fleet' | 'log'>,
  n: Masternode,
): Promise<string | undefined> {
  const pubkey = validatorPubkeyOf(n);
  if (!pubkey) return undefined;
  // The control loop may have destroyed the node already (the delete asked it to):
  // then there is no daemon to ask, and the wall clock bounds what it signed.
  const head = await readHeadSlot(() => ctx.fleet.daemonOf(n), n, ctx.log);
  await ctx.fleet.stopNode(n);
  return exitInterchange(n.coin_id, pubkey, head);
}
