import * as v from 'valibot';
import { daemonCallName, namedCall, type BitcoinRpc } from './jsonrpc';

// Dash-family calls (dashd and its DIP003 forks: Firo, Syscoin, PACGlobal, GoByte, Raptoreum, ...).
const Hash = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
const Height = v.pipe(v.number(), v.integer(), v.minValue(-1));

/** `protx info <proTxHash>`: only the state fields the platform shows are checked; forks add more. */
const ProtxInfo = v.object({
  proTxHash: Hash,
  collateralAddress: v.optional(v.string()),
  state: v.object({
    registeredHeight: Height,
    lastPaidHeight: Height,
    PoSePenalty: v.pipe(v.number(), v.integer(), v.minValue(0)),
    PoSeBanHeight: Height,
    service: v.optional(v.string()),
    pubKeyOperator: v.optional(v.string()),
    payoutAddress: v.optional(v.string()),
  }),
});

export type ProtxState = {
  proTxHash: string;
  registeredHeight: number | null;
  /** Null when the node was never paid (the daemon says 0). */
  lastPaidHeight: number | null;
  posePenalty: number;
  /** Null when not banned (the daemon says -1). */
  poseBanHeight: number | null;
  service: string | null;
  /** The collateral output's address (whose balance and payments the node page shows). */
  collateralAddress: string | null;
};

export async function protxInfo(rpc: BitcoinRpc, proTxHash: string): Promise<ProtxState> {
  const { state, collateralAddress } = await namedCall(rpc, 'protx info', [proTxHash], ProtxInfo);
  return {
    proTxHash,
    registeredHeight: state.registeredHeight > 0 ? state.registeredHeight : null,
    lastPaidHeight: state.lastPaidHeight > 0 ? state.lastPaidHeight : null,
    posePenalty: state.PoSePenalty,
    poseBanHeight: state.PoSeBanHeight >= 0 ? state.PoSeBanHeight : null,
    service: state.service ?? null,
    collateralAddress: collateralAddress ?? null,
  };
}

const Prepared = v.object({
  tx: v.pipe(v.string(), v.regex(/^[0-9a-f]+$/)),
  collateralAddress: v.string(),
  signMessage: v.string(),
});
export type Prepared = v.InferOutput<typeof Prepared>;

/**
 * `protx register_prepare`, run on the hosted node's own wallet: it adds fee inputs from
 * `feeSourceAddress` (an address of that wallet), so the same wallet can sign them in
 * register_submit. The owner only signs `signMessage` with the collateral address.
 */
export function registerPrepare(
  rpc: BitcoinRpc,
  p: {
    collateralHash: string;
    collateralIndex: number;
    service: string;
    ownerAddress: string;
    operatorPubKey: string;
    votingAddress: string;
    operatorReward: string;
    payoutAddress: string;
    feeSourceAddress?: string;
  },
): Promise<Prepared> {
  const params: unknown[] = [
    p.collateralHash,
    p.collateralIndex,
    p.service,
    p.ownerAddress,
    p.operatorPubKey,
    p.votingAddress,
    p.operatorReward,
    p.payoutAddress,
  ];
  if (p.feeSourceAddress) params.push(p.feeSourceAddress);
  return namedCall(rpc, 'protx register_prepare', params, Prepared);
}

/** `protx register_submit "<tx>" "<sig>"`: the registration goes to the network; answers its hash (the proTxHash). */
export function registerSubmit(rpc: BitcoinRpc, tx: string, sig: string): Promise<string> {
  return namedCall(rpc, 'protx register_submit', [tx, sig], Hash);
}

// `gobject list all proposals`: an object keyed by the object hash; the proposal itself is a JSON text.
const GObject = v.object({
  Hash: Hash,
  DataString: v.string(),
  ObjectType: v.number(),
  CreationTime: v.number(),
  AbsoluteYesCount: v.number(),
  YesCount: v.number(),
  NoCount: v.number(),
  AbstainCount: v.number(),
  fCachedFunding: v.boolean(),
  fCachedDelete: v.boolean(),
});
const ProposalData = v.object({
  name: v.pipe(v.string(), v.maxLength(200)),
  url: v.optional(v.string(), ''),
  payment_address: v.string(),
  payment_amount: v.pipe(v.number(), v.minValue(0)),
  start_epoch: v.pipe(v.number(), v.integer()),
  end_epoch: v.pipe(v.number(), v.integer()),
});

export type Proposal = {
  hash: string;
  name: string;
  url: string;
  payment_address: string;
  /** Per payment, in coin units, as the exact decimal text the proposal carries. */
  payment_amount: string;
  start_epoch: number;
  end_epoch: number;
  yes: number;
  no: number;
  abstain: number;
  absolute_yes: number;
  status: 'passing' | 'not passing' | 'expired' | 'deleted';
};

/** The amount exactly as written in the proposal's JSON text (JSON.parse would make it a float). */
function amountText(data: string): string | null {
  const m = /"payment_amount"\s*:\s*(\d+(?:\.\d+)?)(?![\d.eE])/.exec(data);
  return m ? m[1] : null;
}

/**
 * Governance proposals the node knows, newest first; objects that are not well-formed
 * proposals are skipped. None on a daemon without governance objects (its profile's
 * `calls` says `"gobject list": null`, e.g. Firo).
 */
export async function governanceProposals(rpc: BitcoinRpc, nowS = Date.now() / 1000): Promise<Proposal[]> {
  if (daemonCallName(rpc.calls, 'gobject list') === null) return [];
  const all = await namedCall(rpc, 'gobject list', ['all', 'proposals'], v.record(v.string(), GObject));
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
    const amount = amountText(g.DataString);
    if (!p.success || amount === null) continue;
    const status = g.fCachedDelete
      ? 'deleted'
      : p.output.end_epoch < nowS
        ? 'expired'
        : g.fCachedFunding
          ? 'passing'
          : 'not passing';
    out.push({
      hash: g.Hash,
      name: p.output.name,
      url: p.output.url,
      payment_address: p.output.payment_address,
      payment_amount: amount,
      start_epoch: p.output.start_epoch,
      end_epoch: p.output.end_epoch,
      yes: g.YesCount,
      no: g.NoCount,
      abstain: g.AbstainCount,
      absolute_yes: g.AbsoluteYesCount,
      status,
    });
  }
  return out.sort((a, b) => b.start_epoch - a.start_epoch || (a.name < b.name ? -1 : 1));
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const DASH_REPLIES = {
  'protx info': ProtxInfo,
  'protx register_prepare': Prepared,
  'protx register_submit': Hash,
  'gobject list': v.record(v.string(), GObject),
};
