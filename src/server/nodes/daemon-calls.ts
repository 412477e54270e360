import * as v from 'valibot';
import type { DaemonAccess } from '../fleet/access';
import { addressIndexActivity, forNodePage, type ShownActivity } from '../fleet/daemons/activity';
import { governanceProposals, protxInfo, registerSubmit, type Proposal as FleetProposal } from '../fleet/daemons/dash';
import { DaemonError, daemonRequest } from '../fleet/daemons/http';
import { bitcoinCall, namedCall, type BitcoinRpc } from '../fleet/daemons/jsonrpc';
import { getFeeRecipient, setFeeRecipient, signVoluntaryExit } from '../fleet/daemons/keymanager';
import { publishVoluntaryExit, validatorState } from '../fleet/daemons/beacon';
import { normalPubkey } from '../fleet/validator-client';

/**
 * What the customer's node actions ask of a node's daemon, behind one small interface so
 * the actions do not care which RPC the coin speaks. The calls are the real daemons'
 * (`protx register_submit`, `gobject list all proposals`, the address index, the beacon
 * API); the simulator answers the same calls. The calls themselves are the fleet's
 * daemon modules (src/server/fleet/daemons); this file only shapes them for the actions.
 */
export type Proposal = {
  name: string;
  budget: number;
  start_block: number;
  end_block: number;
  yes: number;
  no: number;
  abstain: number;
  status: string;
};
export type WalletActivity = ShownActivity;

export interface NodeDaemon {
  /** `protx register_submit "<tx>" "<sig>"`: answers the registration's hash. */
  registerSubmit(tx: string, sig: string): Promise<string>;
  proposals(): Promise<Proposal[]>;
  /** The collateral address's balance, what it sent and its latest transactions; null where the daemon cannot say. */
  activity(address: string): Promise<WalletActivity | null>;
  /** Where the node's collateral sits and (Dash family, `protx info`) its PoSe penalty. */
  chainRecord(): Promise<{ collateralAddress: string | null; posePenalty: number | null }>;
  /** Beacon node: the current head slot (bounds what a stopped validator can have signed). */
  headSlot(): Promise<number>;
  /** Validator client (Keymanager API, Bearer `token`): the key's fee recipient from now on. */
  setFeeRecipient(token: string, pubkey: string, address: string): Promise<void>;
  /** Validator client: the key's fee recipient as it holds it now. */
  feeRecipient(token: string, pubkey: string): Promise<string>;
  /** Beacon node: the validator's index and state (upper case), null before its deposit is seen. */
  validatorState(pubkey: string): Promise<{ index: string; status: string } | null>;
  /** Validator client signs a voluntary exit (Keymanager API), the beacon node publishes it; answers its epoch. */
  voluntaryExit(token: string, pubkey: string): Promise<string>;
}

export const ACTION_TIMEOUT_MS = 10_000;

/** The node's daemon has no way to do this (e.g. a validator without a Keymanager API). */
export class NotSupportedByDaemon extends Error {
  override readonly name = 'NotSupportedByDaemon';
}

const MnStatus = v.looseObject({
  addr: v.optional(v.string()),
  proTxHash: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
  state: v.optional(v.string()),
});
const Syncing = v.object({ data: v.object({ head_slot: v.string(), sync_distance: v.string() }) });

/** The fleet's proposal (exact amount text, epochs) in the node page's shape. */
function forPage(p: FleetProposal): Proposal {
  // Proposals are bounded by time (epochs); the tab's columns say "block": we give the epochs.
  return {
    name: p.name,
    budget: Number(p.payment_amount),
    start_block: p.start_epoch,
    end_block: p.end_epoch,
    yes: p.yes,
    no: p.no,
    abstain: p.abstain,
    status: p.status,
  };
}

/** The node's daemon as the actions use it. */
export function nodeDaemon(d: DaemonAccess, nodeId: string, timeoutMs = ACTION_TIMEOUT_MS): NodeDaemon {
  const calls = d.profile.run === 'binary' ? d.profile.calls : undefined;
  const rpc: BitcoinRpc = { endpoint: d.endpoint, auth: d.auth, timeoutMs, calls };
  return {
    registerSubmit: (tx, sig) => registerSubmit(rpc, tx, sig),
    proposals: async () => (await governanceProposals(rpc)).map(forPage),
    activity: async (address) => forNodePage(await addressIndexActivity(rpc, address)),
    async chainRecord() {
      const st = await namedCall(rpc, 'masternode status', [], MnStatus);
      if (st.proTxHash && st.state !== 'WAITING_FOR_PROTX') {
        const info = await protxInfo(rpc, st.proTxHash);
        return { collateralAddress: info.collateralAddress, posePenalty: info.posePenalty };
      }
      return { collateralAddress: st.addr ?? null, posePenalty: null };
    },
    async headSlot() {
      const { status, json } = await daemonRequest(d.endpoint, {
        method: 'GET',
        path: '/eth/v1/node/syncing',
        timeoutMs,
      });
      const r = v.safeParse(Syncing, json);
      if (status !== 200 || !r.success) throw new DaemonError('syncing: unexpected reply', 'bad-reply');
      return Number(r.output.data.head_slot) + Number(r.output.data.sync_distance);
    },
    async setFeeRecipient(token, pubkey, address) {
      if (!d.keymanager) throw new NotSupportedByDaemon('no validator client Keymanager API');
      await setFeeRecipient({ endpoint: await d.keymanager(), token, timeoutMs }, normalPubkey(pubkey), address);
    },
    async feeRecipient(token, pubkey) {
      if (!d.keymanager) throw new NotSupportedByDaemon('no validator client Keymanager API');
      return getFeeRecipient({ endpoint: await d.keymanager(), token, timeoutMs }, normalPubkey(pubkey));
    },
    validatorState: (pubkey) => validatorState(d.endpoint, timeoutMs, normalPubkey(pubkey)),
    async voluntaryExit(token, pubkey) {
      if (!d.keymanager) throw new NotSupportedByDaemon('no validator client Keymanager API');
      const signed = await signVoluntaryExit(
        { endpoint: await d.keymanager(), token, timeoutMs },
        normalPubkey(pubkey),
      );
      await publishVoluntaryExit(d.endpoint, timeoutMs, signed);
      return signed.message.epoch;
    },
  };
}
