import type { DB } from '../db/open';

/**
 * What the refresher prices. Market is a price source below coins and billing, so it reads
 * neither: the composition root (src/server/domain-hooks.ts) hands in the catalog's coins
 * (coins) and the price ids of the enabled deposit currencies (billing).
 */
export type PriceTargets = {
  /** Every catalog coin; those with a market id are priced under it. */
  catalogCoins(db: DB): Promise<{ id: string; market_id: string | null }[]>;
  /** Price ids the deposits need quoted (Bitcoin, Litecoin, Monero... by market id). */
  depositPriceIds(db: DB): Promise<string[]>;
};

let targets: PriceTargets | null = null;

export function wirePriceTargets(t: PriceTargets): void {
  targets = t;
}

/** The handed-in targets; a process that forgot to wire them fails its refresh loudly. */
export function priceTargets(): PriceTargets {
  if (!targets) throw new Error('market price targets are not wired (import src/server/domain-hooks.ts)');
  return targets;
}
