import { hex, type SimChains, type SimNode } from './chain';

/**
 * COIN-DAEMON SIMULATOR: the calls behind the owner's node actions and the wallet
 * activity, in the real daemons' shapes: `protx register_submit`, `gobject list`, the
 * address index (`getaddressbalance`, `getaddressdeltas`, `getblockhash`,
 * `getblockheader`), the collateral address. Amounts are satoshis, as dashd's index gives.
 */
export class SimRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const COLLATERAL_SAT = 1000 * 1e8;
const REWARD_SAT = 1e8;
const DAY_S = 86_400;

export function collateralAddress(node: Pick<SimNode, 'nodeId' | 'rpc'>): string {
  const h = hex(66, `${node.nodeId}:collateral-address`);
  let out = node.rpc === 'dash' ? 'X' : 'S';
  for (let i = 0; out.length < 34; i += 2) out += BASE58[parseInt(h.slice(i, i + 2), 16) % 58];
  return out;
}

const blockTimeOf = (chains: SimChains, height: number, node: SimNode) => Math.floor(chains.state.genesis / 1000 + height * node.blockTimeS);
const blockHash = (coin: string, height: number) => hex(56, `${coin}:block:${height}`) + height.toString(16).padStart(8, '0');

/** Heights of the blocks that paid the node (round robin among enabled nodes), newest first, at most `limit`. */
function payments(chains: SimChains, node: SimNode, limit = 50): number[] {
  const last = chains.lastPaid(node);
  const list = chains.enabled(node.coin);
  if (last === null || node.registeredAt === null) return [];
  const since = Math.ceil((node.registeredAt - chains.state.genesis) / (node.blockTimeS * 1000)) + 2;
  const step = Math.max(1, list.length);
  const out: number[] = [];
  for (let h = last; h >= since && out.length < limit; h -= step) out.push(h);
  return out;
}

function nodesAt(chains: SimChains, coin: string, params: unknown[]): SimNode[] {
  const p = params[0] as { addresses?: unknown } | undefined;
  const addresses = p && typeof p === 'object' ? p.addresses : undefined;
  if (!Array.isArray(addresses) || addresses.some((a) => typeof a !== 'string')) throw new SimRpcError(-5, 'Invalid address');
  return Object.values(chains.state.nodes).filter((n) => n.coin === coin && addresses.includes(collateralAddress(n)));
}

export function addressBalance(chains: SimChains, coin: string, params: unknown[]) {
  let balance = 0;
  for (const n of nodesAt(chains, coin, params)) balance += COLLATERAL_SAT + payments(chains, n, 1e6).length * REWARD_SAT;
  return { balance, balance_immature: 0, balance_spendable: balance, received: balance };
}

export function addressDeltas(chains: SimChains, coin: string, params: unknown[]) {
  const out: Array<{ satoshis: number; txid: string; index: number; blockindex: number; height: number; address: string }> = [];
  for (const n of nodesAt(chains, coin, params)) {
    const address = collateralAddress(n);
    const ch = Math.max(1, Math.floor((n.createdAt - chains.state.genesis) / (n.blockTimeS * 1000)) - 1);
    out.push({ satoshis: COLLATERAL_SAT, txid: hex(64, `${n.nodeId}:collateral-tx`), index: 1, blockindex: 1, height: ch, address });
    for (const h of payments(chains, n)) out.push({ satoshis: REWARD_SAT, txid: hex(64, `${coin}:coinbase:${h}`), index: 0, blockindex: 0, height: h, address });
  }
  return out.sort((a, b) => a.height - b.height);
}

export function getBlockHash(chains: SimChains, node: SimNode, height: unknown): string {
  if (typeof height !== 'number' || !Number.isInteger(height) || height < 0 || height > chains.tip(node.coin)) throw new SimRpcError(-8, 'Block height out of range');
  return blockHash(node.coin, height);
}

export function blockHeader(chains: SimChains, node: SimNode, hash: unknown) {
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new SimRpcError(-8, 'hash must be of length 64');
  const height = parseInt(hash.slice(56), 16);
  if (blockHash(node.coin, height) !== hash) throw new SimRpcError(-5, 'Block not found');
  return { hash, height, time: blockTimeOf(chains, height, node), confirmations: chains.tip(node.coin) - height + 1 };
}

/** Three proposals per coin, fixed by its name; one ended before the simulated chain began. */
export function proposals(chains: SimChains, node: SimNode) {
  const g = Math.floor(chains.state.genesis / 1000);
  const defs = [
    { name: `${node.coin}-core-development`, amount: 1250.5, start: g - 20 * DAY_S, end: g + 40 * DAY_S, yes: 40, no: 3, funded: true },
    { name: `${node.coin}-exchange-listing`, amount: 300, start: g - 2 * DAY_S, end: g + 58 * DAY_S, yes: 2, no: 9, funded: false },
    { name: `${node.coin}-conference-2025`, amount: 75.25, start: g - 90 * DAY_S, end: g - 30 * DAY_S, yes: 61, no: 12, funded: false },
  ];
  const out: Record<string, unknown> = {};
  for (const d of defs) {
    const h = hex(64, `${node.coin}:proposal:${d.name}`);
    const data = JSON.stringify({ end_epoch: d.end, name: d.name, payment_address: collateralAddress({ nodeId: d.name, rpc: 'dash' }), payment_amount: d.amount, start_epoch: d.start, type: 1, url: `https://example.org/${d.name}` });
    out[h] = { DataString: data, Hash: h, ObjectType: 1, CreationTime: d.start, AbsoluteYesCount: d.yes - d.no, YesCount: d.yes, NoCount: d.no, AbstainCount: 1, fCachedValid: true, fCachedFunding: d.funded, fCachedDelete: false };
  }
  return out;
}

/** `protx register_submit "<tx>" "<sig>"`, checked in dashd's order with dashd's messages. */
export function registerSubmit(chains: SimChains, node: SimNode, tx: unknown, sig: unknown): string {
  if (typeof tx !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(tx)) throw new SimRpcError(-8, 'transaction not deserializable');
  if (!tx.toLowerCase().startsWith('03000100')) throw new SimRpcError(-8, 'transaction not a ProRegTx');
  // The payload names the operator's BLS public key: that is the node being registered.
  const target = Object.values(chains.state.nodes).find((n) => n.coin === node.coin && tx.toLowerCase().includes(n.blsPublic));
  if (!target) throw new SimRpcError(-8, 'transaction payload not deserializable');
  if (typeof sig !== 'string' || Buffer.from(sig, 'base64').length !== 65) throw new SimRpcError(-1, 'bad-protx-sig (code 16)');
  if (target.registeredAt !== null) throw new SimRpcError(-1, 'bad-protx-dup-key (code 18)');
  target.registeredAt = Date.now();
  return target.proTxHash;
}
