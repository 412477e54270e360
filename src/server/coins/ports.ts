import type { DB } from '../db/open';
import type { DaemonProfile } from '../fleet/profiles';

/** What a coin's page shows of the chain, from the nodes that follow it (nodes/ reads it). */
export type ChainObservation = {
  simulated: boolean;
  latestBlock: number;
  wallet: { version: string; protocol_version: string; connections: number | null } | null;
};

/**
 * What coins shows of the hosted nodes (counts per coin, the chain as nodes see it). The
 * nodes domain owns those tables and sits above coins (a node needs its coin), so the
 * composition root (src/server/domain-hooks.ts) hands these in once, at load.
 */
export type CoinsPorts = {
  /** Hosted nodes per coin (not deleting, deleted or failed). */
  hostedCounts(db: DB): Promise<Map<string, number>>;
  /** Live nodes per coin that hold real collateral. */
  realNodeCounts(db: DB): Promise<Map<string, number>>;
  /** The chain as the coin's most recently checked nodes (since `since`) report it, or null. */
  chainObservation(db: DB, coinId: string, since: number): Promise<ChainObservation | null>;
  /** Per coin with a finished `coins check`: is it ready on a host that can take it now, and why not. */
  readiness(db: DB, profiles: Record<string, DaemonProfile>): Promise<Map<string, CoinReadiness>>;
};

export type CoinReadiness = { ready: boolean; reason: string; checkedAt: number | null };

let ports: CoinsPorts | null = null;

export function wireCoins(p: CoinsPorts): void {
  ports = p;
}

/** The handed-in ports; a process that forgot to wire them fails loudly. */
export function coinsPorts(): CoinsPorts {
  if (!ports) throw new Error('coins ports are not wired (import src/server/domain-hooks.ts)');
  return ports;
}
