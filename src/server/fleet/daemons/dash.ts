import * as v from 'valibot';
import { bitcoinCall, type BitcoinRpc } from './jsonrpc';

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
  const { state, collateralAddress } = await bitcoinCall(rpc, 'protx', ['info', proTxHash], ProtxInfo);
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

const Prepared = v.object({ tx: v.pipe(v.string(), v.regex(/^[0-9a-f]+$/)), collateralAddress: v.string(), signMessage: v.string() });
export type Prepared = v.InferOutput<typeof Prepared>;

/**
 * `protx register_prepare`, run on the hosted node's own wallet: it adds fee inputs from
 * `feeSourceAddress` (an address of that wallet), so the same wallet can sign them in
 * register_submit. The owner only signs `signMessage` with the collateral address.
 */
export function registerPrepare(
  rpc: BitcoinRpc,
  p: { collateralHash: string; collateralIndex: number; service: string; ownerAddress: string; operatorPubKey: string; votingAddress: string; operatorReward: string; payoutAddress: string; feeSourceAddress?: string },
): Promise<Prepared> {
  const params: unknown[] = [p.collateralHash, p.collateralIndex, p.service, p.ownerAddress, p.operatorPubKey, p.votingAddress, p.operatorReward, p.payoutAddress];
  if (p.feeSourceAddress) params.push(p.feeSourceAddress);
  return bitcoinCall(rpc, 'protx', ['register_prepare', ...params], Prepared);
}

/** `protx register_submit "<tx>" "<sig>"`: the registration goes to the network; answers its hash (the proTxHash). */
export function registerSubmit(rpc: BitcoinRpc, tx: string, sig: string): Promise<string> {
  return bitcoinCall(rpc, 'protx', ['register_submit', tx, sig], Hash);
}

/** A signmessage signature: base64 of 65 bytes (recovery id + r + s). */
const SIG = /^[A-Za-z0-9+/]{87}=$/;
const TX = /^(?:[0-9a-fA-F]{2}){60,100000}$/;

export type RegisterSubmission = { tx: string; sig: string };
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * What the owner pastes to start a DIP003 node (docs/decisions.md, issue 8): either the JSON
 * that `protx register_prepare` printed followed by the signature `signmessage` printed, or
 * "<tx> <sig>" on one line, or only the signature when the platform prepared the
 * transaction itself (`prepared`). Anything else is refused with the reason.
 */
export function parseRegisterSubmission(text: string, prepared?: Prepared | null): Parsed<RegisterSubmission> {
  const input = text.trim();
  if (!input) return { ok: false, message: 'Paste the signed message.' };
  if (input.length > 210_000) return { ok: false, message: 'The text is too long to be a registration.' };
  let tx: string | null = null;
  let rest = input;
  if (input.startsWith('{')) {
    const end = input.lastIndexOf('}');
    let json: unknown;
    try {
      json = JSON.parse(input.slice(0, end + 1));
    } catch {
      return { ok: false, message: 'The register_prepare output is not valid JSON: paste it exactly as the wallet printed it.' };
    }
    const r = v.safeParse(v.object({ tx: v.string() }), json);
    if (!r.success) return { ok: false, message: 'The register_prepare output has no "tx" field.' };
    tx = r.output.tx;
    rest = input.slice(end + 1).trim();
  } else {
    const words = input.split(/\s+/);
    if (words.length > 2) return { ok: false, message: 'Expected the transaction and the signature separated by a space, nothing else.' };
    if (words.length === 2) [tx, rest] = words;
  }
  if (tx === null) {
    if (!prepared) return { ok: false, message: 'The transaction is missing: paste the register_prepare output and the signature.' };
    tx = prepared.tx;
  }
  if (!TX.test(tx)) return { ok: false, message: 'The transaction is not valid hex.' };
  if (prepared && tx.toLowerCase() !== prepared.tx) return { ok: false, message: 'This transaction is not the one prepared for this node.' };
  const sig = rest.replace(/^"|"$/g, '');
  if (!sig) return { ok: false, message: 'The signature is missing: paste the text signmessage printed after the transaction.' };
  if (!SIG.test(sig)) return { ok: false, message: 'The signature is not valid: it is the 88-character text signmessage printed.' };
  return { ok: true, value: { tx: tx.toLowerCase(), sig } };
}

/**
 * What the owner pastes for a quick-setup node (smartnode family, `protx quick_setup` in
 * their wallet): the config file the command wrote, or only the operator BLS secret from
 * its `smartnodeblsprivkey=` / `masternodeblsprivkey=` line. Answers the secret key (hex);
 * checking it is a BLS12-381 secret and writing it into the node's config is the caller's.
 */
export function parseQuickSetupSecret(text: string): Parsed<string> {
  const input = text.trim();
  if (!input) return { ok: false, message: 'Paste the text the wallet wrote.' };
  if (input.length > 10_000) return { ok: false, message: 'The text is too long.' };
  const lines = input.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  let key: string | null = null;
  if (lines.length === 1 && !lines[0].includes('=')) key = lines[0];
  else {
    const found = lines.map((l) => /^(?:smartnode|masternode)blsprivkey\s*=\s*(\S+)$/.exec(l)).filter((m) => m !== null);
    if (found.length === 0) return { ok: false, message: 'No smartnodeblsprivkey line found: paste the file protx quick_setup wrote, or the key alone.' };
    if (found.length > 1) return { ok: false, message: 'The text holds more than one BLS key: paste one node\'s file.' };
    key = found[0][1];
  }
  if (!/^[0-9a-fA-F]{64}$/.test(key)) return { ok: false, message: 'The BLS secret key must be 64 hexadecimal characters.' };
  return { ok: true, value: key.toLowerCase() };
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

/** Governance proposals the node knows, newest first; objects that are not well-formed proposals are skipped. */
export async function governanceProposals(rpc: BitcoinRpc, nowS = Date.now() / 1000): Promise<Proposal[]> {
  const all = await bitcoinCall(rpc, 'gobject', ['list', 'all', 'proposals'], v.record(v.string(), GObject));
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
    const status = g.fCachedDelete ? 'deleted' : p.output.end_epoch < nowS ? 'expired' : g.fCachedFunding ? 'passing' : 'not passing';
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
