/**
 * COIN-DAEMON SIMULATOR: the simulated chains and nodes behind it. Not a blockchain:
 * block heights follow the clock, each block pays one enabled node of its coin, and
 * each node syncs, waits for registration and runs, so the platform's monitor sees the
 * same life cycle it sees on a real daemon.
 */
export type SimRpcFamily = 'bitcoin' | 'dash' | 'monero' | 'evm';

export type SimNodeConfig = {
  nodeId: string;
  coin: string;
  rpc: SimRpcFamily;
  /** Seconds per block of this coin's simulated chain. */
  blockTimeS: number;
  /** Seconds a fresh node needs to catch up with the tip. */
  syncSeconds: number;
  /** Registered on the network (protx, service node, validator deposit) from the start. */
  registered?: boolean;
  /** The coin's collateral and one node payment, in satoshis (1e-8 coin): the collateral address's balance. */
  collateralSat?: number;
  rewardSat?: number;
  /** Dash family: the operator BLS public key the platform made for the node (what a real
   * node's `masternodeblsprivkey` gives it); without one the simulator makes its own. */
  operatorPublic?: string;
  /** EVM validators: the keys its simulated validator client holds (0x-prefixed, lower case) and their fee recipients. */
  validators?: Array<{ pubkey: string; feeRecipient: string }>;
  /** Bearer token of its Keymanager API. */
  keymanagerToken?: string;
  /**
   * The daemon version it runs (the profile's when absent), in every version string it
   * reports. A version containing "broken" stands for a release that does not start on
   * this chain: every RPC call fails, as a daemon stuck at start-up answers.
   */
  daemonVersion?: string;
};

export type SimNode = SimNodeConfig & {
  createdAt: number;
  registeredAt: number | null;
  /** Forced network status (tests, the operator's what-if): e.g. "POSE_BANNED". */
  forcedStatus: string | null;
  /** Forced PoSe penalty score (`protx info`), null for none. */
  forcedPenalty?: number | null;
  /** Sync stopped (tests of the stall alert): the height it stays at until resumed, null while it runs. */
  stalledAt?: number | null;
  lastPaidHeight: number | null;
  /** EVM validators: when a signed voluntary exit reached its beacon pool (null/absent: none). */
  exitAt?: number | null;
  blsSecret: string;
  blsPublic: string;
  proTxHash: string;
};

/** A transaction the test or operator told the simulator about (burns for SIN's check). */
export type SimTx = { txid: string; coin: string; burnSat: number; time: number };

export type SimState = { genesis: number; nodes: Record<string, SimNode>; txs?: Record<string, SimTx> };

export const hex = (n: number, seed: string) => {
  let h = 2166136261;
  let out = '';
  for (let i = 0; out.length < n; i++) {
    for (const ch of `${seed}:${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out.slice(0, n);
};

/** A simulated validator's index on its beacon chain (stable per node). */
export const validatorIndex = (node: Pick<SimNode, 'nodeId'>) => String(parseInt(hex(6, `index:${node.nodeId}`), 16));

/** Does the simulated node's validator client hold this key (0x, lower case)? */
export const holdsValidator = (node: SimNode, pubkey: string) =>
  pubkey === `0x${node.blsPublic}` || (node.validators ?? []).some((v) => v.pubkey === pubkey);

export class SimChains {
  constructor(
    public state: SimState,
    private readonly now: () => number = Date.now,
  ) {}

  static fresh(now = Date.now()): SimChains {
    return new SimChains({ genesis: now - 3_600_000, nodes: {} });
  }

  add(cfg: SimNodeConfig): SimNode {
    const existing = this.state.nodes[cfg.nodeId];
    if (existing) {
      // The same node started again with another daemon version (an upgrade or its
      // rollback): its chain, registration and keys are the node's, kept as they are.
      if (cfg.daemonVersion !== existing.daemonVersion) existing.daemonVersion = cfg.daemonVersion;
      // A node served again as registered (a family that needs no start step) is on its network from now.
      if (cfg.registered && existing.registeredAt === null) existing.registeredAt = existing.createdAt;
      return existing;
    }
    const now = this.now();
    const node: SimNode = {
      ...cfg,
      createdAt: now,
      registeredAt: cfg.registered ? now : null,
      forcedStatus: null,
      lastPaidHeight: null,
      blsSecret: hex(64, `${cfg.nodeId}:bls-secret`),
      blsPublic: cfg.operatorPublic ?? hex(96, `${cfg.nodeId}:bls-public`),
      proTxHash: hex(64, `${cfg.nodeId}:protx`),
    };
    this.state.nodes[cfg.nodeId] = node;
    return node;
  }

  remove(nodeId: string): boolean {
    return delete this.state.nodes[nodeId];
  }

  get(nodeId: string): SimNode | undefined {
    return this.state.nodes[nodeId];
  }

  /** The coin's tip height: one block per block time since genesis. */
  tip(coin: string): number {
    const node = Object.values(this.state.nodes).find((n) => n.coin === coin);
    const blockTimeS = node?.blockTimeS ?? 60;
    return Math.floor((this.now() - this.state.genesis) / (blockTimeS * 1000));
  }

  /** The node's own height: it catches up linearly over `syncSeconds` after creation. */
  height(node: SimNode): number {
    if (node.stalledAt !== undefined && node.stalledAt !== null) return node.stalledAt;
    const tip = this.tip(node.coin);
    const progress = node.syncSeconds <= 0 ? 1 : Math.min(1, (this.now() - node.createdAt) / (node.syncSeconds * 1000));
    return Math.floor(tip * progress);
  }

  synced(node: SimNode): boolean {
    return this.height(node) >= this.tip(node.coin);
  }

  /** Enabled nodes of a coin, in a stable order (they are paid in turn). */
  enabled(coin: string): SimNode[] {
    return Object.values(this.state.nodes)
      .filter((n) => n.coin === coin && n.registeredAt !== null && this.synced(n) && !n.forcedStatus)
      .sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1));
  }

  /** Network status as the coin's daemon would word it. */
  networkStatus(node: SimNode): string {
    if (node.forcedStatus) return node.forcedStatus;
    // A validator's exit: exiting for four blocks (a real one waits in the exit queue), then out.
    if (node.rpc === 'evm' && node.exitAt)
      return (this.now() - node.exitAt) / (node.blockTimeS * 1000) < 4 ? 'ACTIVE_EXITING' : 'EXITED_UNSLASHED';
    if (node.registeredAt === null) return node.rpc === 'evm' ? 'PENDING_INITIALIZED' : 'WAITING_FOR_PROTX';
    // A registration the owner broadcast spends two blocks pre-enabled before the network
    // counts it; a node on its network from the start (no registration step) has none to wait for.
    const ageBlocks = (this.now() - node.registeredAt) / (node.blockTimeS * 1000);
    const broadcast = node.registeredAt > node.createdAt;
    if (!this.synced(node)) return 'PRE_ENABLED';
    if (broadcast && ageBlocks < 2) return node.rpc === 'evm' ? 'PENDING_QUEUED' : 'PRE_ENABLED';
    return node.rpc === 'evm' ? 'ACTIVE_ONGOING' : 'ENABLED';
  }

  /**
   * Height of the last block that paid this node: enabled nodes are paid round robin,
   * one per block, so a node is paid every `enabled.length` blocks.
   */
  lastPaid(node: SimNode): number | null {
    const list = this.enabled(node.coin);
    const i = list.findIndex((n) => n.nodeId === node.nodeId);
    if (i < 0) return node.lastPaidHeight;
    const tip = this.tip(node.coin);
    const since = this.paidSince(node);
    const n = list.length;
    // Last h <= tip with h % n == i and h >= since.
    let h = tip - ((((tip - i) % n) + n) % n);
    if (h < since) return node.lastPaidHeight;
    node.lastPaidHeight = h;
    return h;
  }

  /** Heights of every block that paid this node (newest first), at most `limit`; `count` is all of them. */
  payments(node: SimNode, limit = 1000): { count: number; heights: number[] } {
    const last = this.lastPaid(node);
    const list = this.enabled(node.coin);
    if (last === null || node.registeredAt === null) return { count: 0, heights: [] };
    const since = this.paidSince(node);
    const step = Math.max(1, list.length);
    const count = Math.floor((last - since) / step) + 1;
    const heights: number[] = [];
    for (let h = last; h >= since && heights.length < limit; h -= step) heights.push(h);
    return { count: Math.max(0, count), heights };
  }

  /** First height a registered node can be paid at: two blocks after its registration. */
  paidSince(node: SimNode): number {
    return node.registeredAt === null
      ? 0
      : Math.ceil((node.registeredAt - this.state.genesis) / (node.blockTimeS * 1000)) + 2;
  }

  /** Height of the block mined at `at` (ms) on this node's chain. */
  heightAt(node: SimNode, at: number): number {
    return Math.max(0, Math.floor((at - this.state.genesis) / (node.blockTimeS * 1000)));
  }

  /** Unix time (s) of a block of this node's chain. */
  blockTime(node: SimNode, height: number): number {
    return Math.floor((this.state.genesis + height * node.blockTimeS * 1000) / 1000);
  }

  /** Seconds between two payments of one node of this coin. */
  rewardFrequencyS(coin: string): number | null {
    const list = this.enabled(coin);
    return list.length ? list.length * list[0].blockTimeS : null;
  }
}
