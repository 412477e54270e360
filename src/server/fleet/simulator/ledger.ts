import { SIMULATED_BURN_PREFIX } from '../../../shared/simulated-burn';
import { hex, type SimChains, type SimNode } from './chain';

/**
 * COIN-DAEMON SIMULATOR: the money side of a simulated chain, in the real daemons'
 * shapes: the collateral address of each node with its payments (Dash's address
 * index), governance proposals (`gobject list`), transactions (`getrawtransaction`,
 * burns for SIN's check) and ProTx registration (`protx register_submit`).
 * Amounts are integer satoshis inside; JSON `value` fields are coins, as daemons send.
 */

/** A JSON-RPC error the way the real daemon words it. */
export class SimRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DAY_S = 86_400;

/** A deterministic 34-character base58 address for the node's collateral ('X…' for Dash-like coins). */
export function collateralAddress(node: Pick<SimNode, 'nodeId' | 'rpc'>): string {
  const h = hex(66, `${node.nodeId}:collateral-address`);
  let out = node.rpc === 'dash' ? 'X' : 'S';
  for (let i = 0; out.length < 34; i += 2) out += BASE58[parseInt(h.slice(i, i + 2), 16) % 58];
  return out;
}

const collateralTxid = (node: SimNode) => hex(64, `${node.nodeId}:collateral-tx`);
const DEFAULT_COLLATERAL_SAT = 1000 * 1e8;
const DEFAULT_REWARD_SAT = 1e8;

/** Where the collateral arrived: the block before the node was created. */
function collateralHeight(chains: SimChains, node: SimNode): number {
  return Math.max(1, chains.heightAt(node, node.createdAt) - 1);
}

type Delta = { satoshis: number; txid: string; index: number; blockindex: number; height: number; address: string };

function nodesFor(chains: SimChains, coin: string, addresses: unknown): SimNode[] {
  if (!Array.isArray(addresses) || addresses.some((a) => typeof a !== 'string'))
    throw new SimRpcError(-5, 'Invalid address');
  return Object.values(chains.state.nodes).filter((n) => n.coin === coin && addresses.includes(collateralAddress(n)));
}

function addressArg(params: unknown[]): { addresses: unknown; start?: number; end?: number } {
  const p = params[0];
  if (typeof p === 'string') return { addresses: [p] };
  if (p && typeof p === 'object' && 'addresses' in p) return p as { addresses: unknown; start?: number; end?: number };
  throw new SimRpcError(-5, 'Invalid address');
}

/** `getaddressbalance {"addresses": [...]}`: collateral plus every payment; the owner never spent from it. */
export function addressBalance(chains: SimChains, coin: string, params: unknown[]) {
  let balance = 0;
  for (const node of nodesFor(chains, coin, addressArg(params).addresses)) {
    balance +=
      (node.collateralSat ?? DEFAULT_COLLATERAL_SAT) +
      chains.payments(node, 0).count * (node.rewardSat ?? DEFAULT_REWARD_SAT);
  }
  return { balance, balance_immature: 0, balance_spendable: balance, received: balance };
}

/** `getaddressdeltas {"addresses": [...], "start": h, "end": h}`: oldest first, like dashd. */
export function addressDeltas(chains: SimChains, coin: string, params: unknown[]): Delta[] {
  const arg = addressArg(params);
  const start = typeof arg.start === 'number' ? arg.start : 0;
  const end = typeof arg.end === 'number' && arg.end > 0 ? arg.end : Infinity;
  const out: Delta[] = [];
  for (const node of nodesFor(chains, coin, arg.addresses)) {
    const address = collateralAddress(node);
    const ch = collateralHeight(chains, node);
    if (ch >= start && ch <= end)
      out.push({
        satoshis: node.collateralSat ?? DEFAULT_COLLATERAL_SAT,
        txid: collateralTxid(node),
        index: 1,
        blockindex: 1,
        height: ch,
        address,
      });
    for (const h of chains.payments(node).heights) {
      if (h < start || h > end) continue;
      out.push({
        satoshis: node.rewardSat ?? DEFAULT_REWARD_SAT,
        txid: hex(64, `${coin}:coinbase:${h}`),
        index: 1,
        blockindex: 0,
        height: h,
        address,
      });
    }
  }
  return out.sort((a, b) => a.height - b.height || (a.txid < b.txid ? -1 : 1));
}

/** Block hashes carry their height in the last 8 hex digits, so a header can be found again. */
export const blockHash = (coin: string, height: number) =>
  hex(56, `${coin}:block:${height}`) + height.toString(16).padStart(8, '0');

export function blockHeader(chains: SimChains, node: SimNode, hash: unknown) {
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
    throw new SimRpcError(-8, 'hash must be of length 64 (not ' + String(hash).length + ')');
  const height = parseInt(hash.slice(56), 16);
  const tip = chains.tip(node.coin);
  if (blockHash(node.coin, height) !== hash || height > tip) throw new SimRpcError(-5, 'Block not found');
  return {
    hash,
    confirmations: tip - height + 1,
    height,
    version: 536870912,
    time: chains.blockTime(node, height),
    mediantime: chains.blockTime(node, height),
    nonce: 0,
    previousblockhash: height > 0 ? blockHash(node.coin, height - 1) : undefined,
  };
}

export function getBlockHash(chains: SimChains, node: SimNode, height: unknown): string {
  if (typeof height !== 'number' || !Number.isInteger(height) || height < 0 || height > chains.tip(node.coin))
    throw new SimRpcError(-8, 'Block height out of range');
  return blockHash(node.coin, height);
}

/**
 * Governance: three proposals per coin, fixed by the coin's name; votes grow with the
 * chain's height so the proposals tab moves. One ended before the simulated chain began.
 */
export function proposals(chains: SimChains, node: SimNode) {
  const tip = chains.tip(node.coin);
  const genesisS = Math.floor(chains.state.genesis / 1000);
  const defs = [
    {
      name: `${node.coin}-core-development`,
      amount: '1250.5',
      start: genesisS - 20 * DAY_S,
      end: genesisS + 40 * DAY_S,
      yes: 40,
      no: 3,
      rate: 7,
    },
    {
      name: `${node.coin}-exchange-listing`,
      amount: '300',
      start: genesisS - 2 * DAY_S,
      end: genesisS + 58 * DAY_S,
      yes: 2,
      no: 9,
      rate: 29,
    },
    {
      name: `${node.coin}-conference-2025`,
      amount: '75.25',
      start: genesisS - 90 * DAY_S,
      end: genesisS - 30 * DAY_S,
      yes: 61,
      no: 12,
      rate: 0,
    },
  ];
  const nodes = Math.max(10, Object.values(chains.state.nodes).filter((n) => n.coin === node.coin).length);
  const out: Record<string, unknown> = {};
  for (const d of defs) {
    const hash = hex(64, `${node.coin}:proposal:${d.name}`);
    const yes = d.yes + (d.rate ? Math.floor(tip / d.rate) : 0);
    const no = d.no + (d.rate ? Math.floor(tip / (d.rate * 3)) : 0);
    const abstain = 1 + (d.rate ? Math.floor(tip / (d.rate * 5)) : 0);
    const data = `{"end_epoch":${d.end},"name":"${d.name}","payment_address":"${collateralAddress({ rpc: node.rpc, nodeId: d.name })}","payment_amount":${d.amount},"start_epoch":${d.start},"type":1,"url":"https://example.org/${d.name}"}`;
    out[hash] = {
      DataHex: Buffer.from(data).toString('hex'),
      DataString: data,
      Hash: hash,
      CollateralHash: hex(64, `${hash}:fee`),
      ObjectType: 1,
      CreationTime: d.start,
      AbsoluteYesCount: yes - no,
      YesCount: yes,
      NoCount: no,
      AbstainCount: abstain,
      fBlockchainValidity: true,
      IsValidReason: '',
      fCachedValid: true,
      fCachedFunding: yes - no > nodes / 10,
      fCachedDelete: false,
      fCachedEndorsed: false,
    };
  }
  return out;
}

const NOT_FOUND = 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.';

/**
 * Transactions the simulator knows: ones registered through the admin API, and by
 * txid prefix (for demos): `b0b0…` a burn made a day ago, `01d0…` a burn made 400 days
 * ago, `5e4d…` a plain payment that burns nothing. Any other txid is not found.
 */
export function rawTransaction(chains: SimChains, coin: string, blockTimeS: number, txid: unknown, verbose: unknown) {
  if (typeof txid !== 'string' || !/^[0-9a-fA-F]{64}$/.test(txid))
    throw new SimRpcError(-8, `parameter 1 must be hexadecimal string (not '${String(txid).slice(0, 80)}')`);
  const id = txid.toLowerCase();
  const nowS = Math.floor(Date.now() / 1000);
  const known = chains.state.txs?.[id];
  let burnSat: number;
  let time: number;
  if (known && known.coin === coin) ({ burnSat, time } = known);
  else if (id.startsWith(SIMULATED_BURN_PREFIX)) [burnSat, time] = [1_000_000e8, nowS - DAY_S];
  else if (id.startsWith('01d0')) [burnSat, time] = [1_000_000e8, nowS - 400 * DAY_S];
  else if (id.startsWith('5e4d')) [burnSat, time] = [0, nowS - DAY_S];
  else throw new SimRpcError(-5, NOT_FOUND);
  const hexTx = `01000000${hex(120, `${id}:raw`)}`;
  if (verbose !== true && verbose !== 1) return hexTx;
  const confirmations = Math.max(1, Math.floor((nowS - time) / blockTimeS));
  const height = Math.max(1, Math.floor((Date.now() - chains.state.genesis) / (blockTimeS * 1000)) - confirmations + 1);
  const vout: unknown[] = [];
  if (burnSat > 0)
    vout.push({
      value: burnSat / 1e8,
      valueSat: burnSat,
      n: 0,
      scriptPubKey: {
        asm: `OP_RETURN ${hex(40, `${id}:memo`)}`,
        hex: `6a14${hex(40, `${id}:memo`)}`,
        type: 'nulldata',
      },
    });
  vout.push({
    value: 24.99,
    valueSat: 2_499_000_000,
    n: vout.length,
    scriptPubKey: {
      asm: 'OP_DUP OP_HASH160 … OP_EQUALVERIFY OP_CHECKSIG',
      hex: `76a914${hex(40, `${id}:change`)}88ac`,
      type: 'pubkeyhash',
      addresses: [collateralAddress({ nodeId: `${id}:change`, rpc: 'bitcoin' })],
    },
  });
  return {
    hex: hexTx,
    txid: id,
    hash: id,
    version: 1,
    size: hexTx.length / 2,
    locktime: 0,
    vin: [{ txid: hex(64, `${id}:in`), vout: 0, scriptSig: { asm: '', hex: '' }, sequence: 4294967295 }],
    vout,
    blockhash: blockHash(coin, height),
    height,
    confirmations,
    time,
    blocktime: time,
  };
}

/**
 * `protx register_prepare collateralHash collateralIndex ipAndPort ownerAddress
 * operatorPubKey votingAddress operatorReward payoutAddress [feeSourceAddress]`: an
 * unsigned ProRegTx (version 3, type 1) whose payload carries the operator key, the
 * collateral's address, and the message the collateral's owner signs, in dashd's format
 * "payout|reward|owner|voting|payloadHash".
 */
export function registerPrepare(params: unknown[]) {
  const [hash, index, service, owner, operatorKey, voting, reward, payout] = params;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
    throw new SimRpcError(-8, 'collateralHash must be hexadecimal string');
  if (typeof index !== 'number' && !(typeof index === 'string' && /^\d+$/.test(index)))
    throw new SimRpcError(-8, 'invalid collateralIndex');
  if (typeof service !== 'string' || !/^(\d{1,3}\.){3}\d{1,3}:\d{1,5}$|^0$/.test(service))
    throw new SimRpcError(-8, `invalid network address ${String(service)}`);
  for (const [name, a] of [
    ['ownerAddress', owner],
    ['votingAddress', voting],
    ['payoutAddress', payout],
  ] as const) {
    if (typeof a !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{26,35}$/.test(a))
      throw new SimRpcError(-5, `invalid ${name}: ${String(a)}`);
  }
  if (typeof operatorKey !== 'string' || !/^[0-9a-f]{96}$/.test(operatorKey))
    throw new SimRpcError(-8, 'operatorPubKey must be a valid BLS public key');
  const rewardText = String(reward ?? '0');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(rewardText) || Number(rewardText) > 100)
    throw new SimRpcError(-8, 'operatorReward must be between 0.00 and 100.00');
  const payloadHash = hex(64, `${hash}:${index}:${operatorKey}:payload`);
  const tx = `03000100${hex(72, `${hash}:${index}:inputs`)}${hash}${operatorKey}${payloadHash}`;
  const collateralAddress = collateralAddressOfOutpoint(hash, Number(index));
  return {
    tx,
    collateralAddress,
    signMessage: `${payout}|${Math.round(Number(rewardText) * 100)}|${owner}|${voting}|${payloadHash}`,
  };
}

/** The simulated address of any outpoint (the collateral's owner's address). */
export const collateralAddressOfOutpoint = (hash: string, index: number) =>
  collateralAddress({ nodeId: `${hash}-${index}`, rpc: 'dash' });

/** `protx register_submit "<tx>" "<sig>"`, checked in dashd's order with dashd's messages. */
export function registerSubmit(chains: SimChains, node: SimNode, tx: unknown, sig: unknown): string {
  if (typeof tx !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(tx))
    throw new SimRpcError(-8, 'transaction not deserializable');
  // A DIP2 special transaction: version 3, type 1 (ProRegTx), little-endian.
  if (!tx.toLowerCase().startsWith('03000100')) throw new SimRpcError(-8, 'transaction not a ProRegTx');
  // The payload names the operator's BLS public key: that is the node being registered.
  const target = Object.values(chains.state.nodes).find(
    (n) => n.coin === node.coin && tx.toLowerCase().includes(n.blsPublic),
  );
  if (!target) throw new SimRpcError(-8, 'transaction payload not deserializable');
  if (typeof sig !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(sig) || sig.length % 4 !== 0)
    throw new SimRpcError(-8, 'malformed base64 encoding');
  if (Buffer.from(sig, 'base64').length !== 65) throw new SimRpcError(-1, 'bad-protx-sig (code 16)');
  if (target.registeredAt !== null) throw new SimRpcError(-1, 'bad-protx-dup-key (code 18)');
  target.registeredAt = Date.now();
  return target.proTxHash;
}
