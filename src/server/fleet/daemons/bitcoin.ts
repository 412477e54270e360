import * as v from 'valibot';
import { bitcoinCall, namedCall, RpcError, type BitcoinRpc } from './jsonrpc';
import { protxInfo } from './dash';
import { chainObservation, type Observation } from './observation';

export { bitcoinCall, type BitcoinRpc } from './jsonrpc';

// Bitcoin-family JSON-RPC (litecoind, dashd and their forks). Every reply is checked.
const BlockchainInfo = v.object({
  blocks: v.pipe(v.number(), v.integer(), v.minValue(0)),
  headers: v.pipe(v.number(), v.integer()),
  verificationprogress: v.number(),
  initialblockdownload: v.optional(v.boolean()),
  /** PIVX's name for the same flag (src/rpc/blockchain.cpp, see catalog/daemon-facts/pivxd.json). */
  initial_block_downloading: v.optional(v.boolean()),
});

/** Blocks a synced node may trail its headers by: the one whose header came just before it. */
const BLOCK_IN_FLIGHT = 1;

/**
 * Synced: the daemon's IBD flag is off (or it has none) and its blocks have caught up
 * with the headers it knows. The flag alone is not enough: bitcoind clears it for good
 * once its tip is recent, so a node that was away for an hour, or that is still fetching
 * the last few blocks of a young chain, says "not in IBD" while it is blocks behind.
 */
export function chainSynced(chain: v.InferOutput<typeof BlockchainInfo>): boolean {
  const ibd = chain.initialblockdownload ?? chain.initial_block_downloading;
  return ibd !== true && chain.blocks >= chain.headers - BLOCK_IN_FLIGHT;
}
const NetworkInfo = v.object({
  version: v.number(),
  subversion: v.string(),
  protocolversion: v.number(),
  connections: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
/** dashd's `masternode status`: proTxHash is there once the node knows its registration. */
const DashStatus = v.object({ state: v.string(), status: v.string(), proTxHash: v.optional(v.string()) });
/** A registration's hash; daemons say "" or all zeros while they know none. */
const isProTxHash = (h: string | undefined): h is string => !!h && /^[0-9a-f]{64}$/.test(h) && !/^0+$/.test(h);
/**
 * A classic daemon's status: a sentence, or (PIVX-era forks: Bulwark, MUE, Phore, Vitae's
 * getmasternodestatus) activemasternode's numeric state with its sentence under `message`.
 */
const ClassicStatus = v.object({ status: v.union([v.string(), v.number()]), message: v.optional(v.string()) });

/**
 * activemasternode.h's states (ACTIVE_MASTERNODE_INITIAL 0 … STARTED 4), as the words the
 * platform shows: a started node is enabled; a node "not capable" because it is not in the
 * masternode list yet waits for its owner's start.
 */
const CLASSIC_STATES: Record<number, string> = {
  0: 'INITIAL',
  1: 'SYNC_IN_PROCESS',
  2: 'INPUT_TOO_NEW',
  3: 'NOT_CAPABLE',
  4: 'ENABLED',
};
const WAITS_FOR_START =
  /NEW_START_REQUIRED|not found|not started|not in (the )?masternode list|remote activation|waiting for protx/i;

/** What a classic status reply means: the word shown, and whether the owner still has to start the node. */
export function classicStatus(st: v.InferOutput<typeof ClassicStatus>): { word: string; startRequired: boolean } {
  if (typeof st.status === 'string') return { word: st.status, startRequired: WAITS_FOR_START.test(st.status) };
  const word = CLASSIC_STATES[st.status] ?? `STATUS_${st.status}`;
  return { word, startRequired: word === 'NOT_CAPABLE' && (!st.message || WAITS_FOR_START.test(st.message)) };
}
const RewardInfo = v.object({ last_paid_height: v.nullable(v.number()), reward_frequency_s: v.nullable(v.number()) });

/** `dash`: masternode status with state/status; `classic`: a sentence; `none`: plain daemon (e.g. litecoind). */
export async function observeBitcoin(
  rpc: BitcoinRpc,
  flavour: 'dash' | 'classic' | 'none',
  simulated: boolean,
): Promise<Observation> {
  const [chain, net] = await Promise.all([
    bitcoinCall(rpc, 'getblockchaininfo', [], BlockchainInfo),
    bitcoinCall(rpc, 'getnetworkinfo', [], NetworkInfo),
  ]);
  const synced = chainSynced(chain);
  const obs = chainObservation(
    synced,
    chain.blocks,
    {
      version: `${net.version} ${net.subversion}`.trim(),
      protocol_version: String(net.protocolversion),
      connections: net.connections,
    },
    Math.max(chain.blocks, chain.headers),
  );
  if (flavour === 'dash') {
    const st = await namedCall(rpc, 'masternode status', [], DashStatus);
    obs.startRequired = st.state === 'WAITING_FOR_PROTX';
    obs.networkStatus = st.state === 'READY' ? 'ENABLED' : st.state;
    // The registration's own record: PoSe score and payments, so an owner sees trouble before a ban.
    if (isProTxHash(st.proTxHash) && !obs.startRequired) {
      const info = await protxInfo(rpc, st.proTxHash);
      obs.posePenalty = info.posePenalty;
      obs.poseBanHeight = info.poseBanHeight;
      obs.lastPaidHeight = info.lastPaidHeight;
      obs.collateralAddress = info.collateralAddress;
    }
  } else if (flavour === 'classic') {
    // Not in the list yet, some forks answer with an error: "Masternode not found in the list of available masternodes".
    const st = await namedCall(rpc, 'masternode status', [], ClassicStatus).catch((err: unknown) => {
      if (err instanceof RpcError && /not found in the list/i.test(err.daemonMessage)) return null;
      throw err;
    });
    const { word, startRequired } = st ? classicStatus(st) : { word: null, startRequired: true };
    obs.networkStatus = word;
    obs.startRequired = startRequired;
  }
  if (simulated && flavour !== 'none') {
    const r = await bitcoinCall(rpc, 'getrewardinfo', [], RewardInfo);
    obs.lastPaidHeight ??= r.last_paid_height;
    obs.rewardFrequencyS = r.reward_frequency_s;
  }
  return obs;
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const CHAIN_REPLIES = { getblockchaininfo: BlockchainInfo, getnetworkinfo: NetworkInfo };
export const DASH_STATUS_REPLIES = { 'masternode status': DashStatus };
export const CLASSIC_STATUS_REPLIES = { 'masternode status': ClassicStatus };
