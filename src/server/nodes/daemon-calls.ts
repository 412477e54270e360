import * as v from 'valibot';
import type { DaemonAccess } from '../fleet/access';
import { DaemonError, daemonRequest } from '../fleet/daemons/http';

/**
 * What the customer's node actions ask of a node's daemon, behind one small interface so
 * the actions do not care which RPC the coin speaks. The calls are the real daemons'
 * (`protx register_submit`, `gobject list all proposals`, the address index, the beacon
 * API); the simulator answers the same calls. The fleet's daemon modules (another
 * branch) have fuller versions of these; the lead keeps one at merge.
 */
export type Proposal = { name: string; budget: number; start_block: number; end_block: number; yes: number; no: number; abstain: number; status: string };
export type WalletActivity = { sent: number; balance: number; address: string; transactions: Array<{ block: number; txid: string; human_time: string; amount: number }> };

export interface NodeDaemon {
  /** `protx register_submit "<tx>" "<sig>"`: answers the registration's hash. */
  registerSubmit(tx: string, sig: string): Promise<string>;
  /** Quick setup: the node runs with the owner's operator key from now on. */
  applyOperatorKey(secret: string): Promise<void>;
  proposals(): Promise<Proposal[]>;
  /** The collateral address's balance, what it sent and its latest transactions; null where the daemon cannot say. */
  activity(address: string): Promise<WalletActivity | null>;
  /** Where the node's collateral sits and (Dash family, `protx info`) its PoSe penalty. */
  chainRecord(): Promise<{ collateralAddress: string | null; posePenalty: number | null }>;
  /** Beacon node: the current head slot (bounds what a stopped validator can have signed). */
  headSlot(): Promise<number>;
}

export const ACTION_TIMEOUT_MS = 10_000;

/** The node's daemon has no way to do this (e.g. take an operator key without the engine's help). */
export class NotSupportedByDaemon extends Error {
  override readonly name = 'NotSupportedByDaemon';
}

const Envelope = v.object({ result: v.unknown(), error: v.nullable(v.object({ code: v.number(), message: v.string() })) });

async function jsonRpc<T>(d: DaemonAccess, method: string, params: unknown[], schema: v.GenericSchema<unknown, T>, timeoutMs: number): Promise<T> {
  const { json } = await daemonRequest(d.endpoint, { method: 'POST', path: '/', body: { jsonrpc: '1.0', id: 'nodekeep', method, params }, auth: d.auth, timeoutMs });
  const env = v.safeParse(Envelope, json);
  if (!env.success) throw new DaemonError(`${method}: reply is not a JSON-RPC envelope`, 'bad-reply');
  // The daemon's own words: the customer reads them (e.g. "bad-protx-sig").
  if (env.output.error) throw new DaemonError(env.output.error.message, 'rpc-error');
  const r = v.safeParse(schema, env.output.result);
  if (!r.success) throw new DaemonError(`${method}: unexpected reply`, 'bad-reply');
  return r.output;
}

const Hash = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
const GObject = v.object({ DataString: v.string(), ObjectType: v.number(), YesCount: v.number(), NoCount: v.number(), AbstainCount: v.number(), fCachedFunding: v.optional(v.boolean()), fCachedDelete: v.optional(v.boolean()) });
const ProposalData = v.object({ name: v.string(), payment_amount: v.number(), start_epoch: v.number(), end_epoch: v.number() });
const Sat = v.pipe(v.number(), v.safeInteger());
const Balance = v.object({ balance: Sat, received: Sat });
const Deltas = v.array(v.object({ satoshis: Sat, txid: Hash, height: v.number(), address: v.string() }));
const Header = v.object({ time: v.number() });
const MnStatus = v.looseObject({ addr: v.optional(v.string()), proTxHash: v.optional(Hash), state: v.optional(v.string()) });
const ProtxInfo = v.looseObject({ collateralAddress: v.optional(v.string()), state: v.looseObject({ PoSePenalty: v.pipe(v.number(), v.integer(), v.minValue(0)) }) });
const Syncing = v.object({ data: v.object({ head_slot: v.string(), sync_distance: v.string() }) });

const coins = (sat: number) => Math.round(sat) / 1e8;
const humanTime = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');

function proposalsFrom(all: Record<string, v.InferOutput<typeof GObject>>, nowS: number): Proposal[] {
  const out: Proposal[] = [];
  for (const g of Object.values(all)) {
    if (g.ObjectType !== 1) continue;
    let data: unknown;
    try {
      data = JSON.parse(g.DataString);
    } catch {
      continue;
    }
    const p = v.safeParse(ProposalData, data);
    if (!p.success) continue;
    const status = g.fCachedDelete ? 'deleted' : p.output.end_epoch < nowS ? 'expired' : g.fCachedFunding ? 'passing' : 'not passing';
    // Proposals are bounded by time (epochs); the tab's columns say "block": we give the epochs.
    out.push({ name: p.output.name, budget: p.output.payment_amount, start_block: p.output.start_epoch, end_block: p.output.end_epoch, yes: g.YesCount, no: g.NoCount, abstain: g.AbstainCount, status });
  }
  return out.sort((a, b) => b.start_block - a.start_block || (a.name < b.name ? -1 : 1));
}

/** The node's daemon as the actions use it. */
export function nodeDaemon(d: DaemonAccess, nodeId: string, timeoutMs = ACTION_TIMEOUT_MS): NodeDaemon {
  return {
    registerSubmit: (tx, sig) => jsonRpc(d, 'protx', ['register_submit', tx, sig], Hash, timeoutMs),
    async applyOperatorKey(secret) {
      // A real daemon reads the key from its config: the engine must rewrite it and restart.
      if (!d.simulated) throw new NotSupportedByDaemon('operator key on a running daemon');
      // The simulator's stand-in for "restart with smartnodeblsprivkey=<secret>" (its admin API).
      const { status } = await daemonRequest({ host: d.endpoint.host, port: d.endpoint.port }, { method: 'POST', path: `/admin/nodes/${encodeURIComponent(nodeId)}/operator-key`, body: { secret }, timeoutMs });
      if (status !== 200) throw new DaemonError(`the node did not take the key (HTTP ${status})`, 'rpc-error');
    },
    async proposals() {
      const all = await jsonRpc(d, 'gobject', ['list', 'all', 'proposals'], v.record(v.string(), GObject), timeoutMs);
      return proposalsFrom(all, Date.now() / 1000);
    },
    async activity(address) {
      const [totals, deltas] = await Promise.all([
        jsonRpc(d, 'getaddressbalance', [{ addresses: [address] }], Balance, timeoutMs),
        jsonRpc(d, 'getaddressdeltas', [{ addresses: [address] }], Deltas, timeoutMs),
      ]);
      const byTx = new Map<string, { height: number; sat: number }>();
      for (const x of deltas) {
        if (x.address !== address) continue;
        const t = byTx.get(x.txid) ?? { height: x.height, sat: 0 };
        t.sat += x.satoshis;
        byTx.set(x.txid, t);
      }
      const newest = [...byTx.entries()].sort((a, b) => b[1].height - a[1].height).slice(0, 20);
      const transactions = await Promise.all(
        newest.map(async ([txid, t]) => {
          const hash = await jsonRpc(d, 'getblockhash', [t.height], Hash, timeoutMs);
          const { time } = await jsonRpc(d, 'getblockheader', [hash], Header, timeoutMs);
          return { block: t.height, txid, human_time: humanTime(time), amount: coins(t.sat) };
        }),
      );
      return { address, balance: coins(totals.balance), sent: coins(totals.received - totals.balance), transactions };
    },
    async chainRecord() {
      const st = await jsonRpc(d, 'masternode', ['status'], MnStatus, timeoutMs);
      if (st.proTxHash && st.state !== 'WAITING_FOR_PROTX') {
        const info = await jsonRpc(d, 'protx', ['info', st.proTxHash], ProtxInfo, timeoutMs);
        return { collateralAddress: info.collateralAddress ?? null, posePenalty: info.state.PoSePenalty };
      }
      return { collateralAddress: st.addr ?? null, posePenalty: null };
    },
    async headSlot() {
      const { status, json } = await daemonRequest(d.endpoint, { method: 'GET', path: '/eth/v1/node/syncing', timeoutMs });
      const r = v.safeParse(Syncing, json);
      if (status !== 200 || !r.success) throw new DaemonError('syncing: unexpected reply', 'bad-reply');
      return Number(r.output.data.head_slot) + Number(r.output.data.sync_distance);
    },
  };
}
