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
};

export type SimNode = SimNodeConfig & {
  createdAt: number;
  registeredAt: number | null;
  /** Forced network status (tests, the operator's what-if): e.g. "POSE_BANNED". */
  forcedStatus: string | null;
  lastPaidHeight: number | null;
  blsSecret: string;
  blsPublic: string;
  proTxHash: string;
  /** Forced PoSe penalty score (tests, the operator's what-if). */
  forcedPenalty?: number | null;
};

export type SimState = { genesis: number; nodes: Record<string, SimNode> };

export const hex = (n: number, seed: string) => {
  let h = 2166136261;
  let out = '';
  for (let i = 0; out.length < n; i++) {
    for (const ch of `${seed}:${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out.slice(0, n);
};

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
    if (existing) return existing;
    const node: SimNode = {
      ...cfg,
      createdAt: this.now(),
      registeredAt: cfg.registered ? this.now() : null,
      forcedStatus: null,
      lastPaidHeight: null,
      blsSecret: hex(64, `${cfg.nodeId}:bls-secret`),
      blsPublic: hex(96, `${cfg.nodeId}:bls-public`),
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
    if (node.registeredAt === null) return node.rpc === 'evm' ? 'PENDING_INITIALIZED' : 'WAITING_FOR_PROTX';
    // Registered nodes spend two blocks pre-enabled before the network counts them.
    const ageBlocks = (this.now() - node.registeredAt) / (node.blockTimeS * 1000);
    if (!this.synced(node)) return 'PRE_ENABLED';
    if (ageBlocks < 2) return node.rpc === 'evm' ? 'PENDING_QUEUED' : 'PRE_ENABLED';
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
    const since = node.registeredAt === null ? 0 : Math.ceil((node.registeredAt - this.state.genesis) / (node.blockTimeS * 1000)) + 2;
    const n = list.length;
    // Last h <= tip with h % n == i and h >= since.
    let h = tip - ((((tip - i) % n) + n) % n);
    if (h < since) return node.lastPaidHeight;
    node.lastPaidHeight = h;
    return h;
  }

  /** Seconds between two payments of one node of this coin. */
  rewardFrequencyS(coin: string): number | null {
    const list = this.enabled(coin);
    return list.length ? list.length * list[0].blockTimeS : null;
  }
}
