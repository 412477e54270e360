import { DAYS_PER_MONTH } from '../coins/coinList';

/** The fields of a get_detailed row the pricing page reads. */
export type PriceRow = { id: string; label: string; ticker: string; dedicated_price_usd: number; cloud_price_usd: number | null; delisted: boolean };

export type PlanFloor = { daily: number; monthly: number } | null;

function floorOf(prices: number[]): PlanFloor {
  if (prices.length === 0) return null;
  const daily = Math.min(...prices);
  return { daily, monthly: DAYS_PER_MONTH * daily };
}

/**
 * "From" prices of the two plans: the lowest current daily price among listed coins
 * (a delisted coin can no longer be deployed, so its price is no offer). Coins
 * without a cloud plan have no cloud price.
 */
export function planFloors(rows: PriceRow[]): { dedicated: PlanFloor; cloud: PlanFloor } {
  const listed = rows.filter((r) => !r.delisted);
  return {
    dedicated: floorOf(listed.map((r) => r.dedicated_price_usd)),
    cloud: floorOf(listed.flatMap((r) => (r.cloud_price_usd === null ? [] : [r.cloud_price_usd]))),
  };
}
