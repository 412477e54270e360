import type { Context } from '../rpc/context';
import type { Masternode } from '../db/schema';
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

/**
 * Stops the validator, then answers its EIP-3076 interchange (JSON text). We keep no
 * signing history of our own, so the file records, as signed, the newest slot and epoch the
 * node could have reached (the beacon head, or the wall clock when the node is down) plus
 * a margin: the minimal form of the EIP, safe by construction. See src/server/nodes/README.md.
 */
export async function validatorExitFile(
  ctx: Pick<Context, 'fleet' | 'log'>,
  n: Masternode,
): Promise<string | undefined> {
  const pubkey = n.validator_pubkey ?? validatorOutput(n.output_text)?.pubkey;
  if (!pubkey) return undefined;
  const chain = CHAINS[n.coin_id] ?? CHAINS.eth;
  let slot = Math.max(0, Math.floor((Date.now() / 1000 - chain.genesisS) / chain.slotS));
  try {
    // The control loop may have destroyed the node already (the delete asked it to):
    // then there is no daemon to ask, and the wall clock bounds what it signed.
    const d = await ctx.fleet.daemonOf(n);
    if (d) slot = Math.max(slot, await nodeDaemon(d, n.mn_id, 3_000).headSlot());
  } catch (err) {
    ctx.log.warn('validator head slot unreadable; wall clock used', { node: n.mn_id, err });
  }
  await ctx.fleet.stopNode(n);
  const upTo = slot + MARGIN_EPOCHS * chain.perEpoch;
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
