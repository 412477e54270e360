import { DAYS_PER_MONTH } from './coinList';

/** The fields of a get_detailed row the pricing page reads. */
export type PriceRow = {
  id: string;
  label: string;
  ticker: string;
  /** What a customer pays now per day (the campaign price while a campaign runs). */
  dedicated_price_usd: number;
  cloud_price_usd: number | null;
  campaign: boolean;
  regular_dedicated_price_usd: number;
  regular_cloud_price_usd: number | null;
  delisted: boolean;
  /** Not offered yet: listed with its price, but no offer a customer can take now. */
  coming_soon?: boolean;
};

export type PlanFloor = { daily: number; monthly: number } | null;

function floorOf(prices: number[]): PlanFloor {
  if (prices.length === 0) return null;
  const daily = Math.min(...prices);
  return { daily, monthly: DAYS_PER_MONTH * daily };
}

/**
 * "From" prices of the two plans (the spec's plan table): the lowest regular daily
 * price among listed coins. Campaigns are offers on some coins for a while, shown as
 * such, so they do not set the plan's price. A delisted coin can no longer be
 * deployed, so its price is no offer, nor is a coin coming soon; coins without a cloud
 * plan have no cloud price.
 */
export function planFloors(rows: PriceRow[]): { dedicated: PlanFloor; cloud: PlanFloor } {
  const listed = rows.filter((r) => !r.delisted && !r.coming_soon);
  return {
    dedicated: floorOf(listed.map((r) => r.regular_dedicated_price_usd)),
    cloud: floorOf(listed.flatMap((r) => (r.regular_cloud_price_usd === null ? [] : [r.regular_cloud_price_usd]))),
  };
}

/** Listed coins with a price campaign running, cheapest campaign first. */
export function campaignRows(rows: PriceRow[]): PriceRow[] {
  return rows
    .filter((r) => r.campaign && !r.delisted && !r.coming_soon)
    .sort((a, b) => a.dedicated_price_usd - b.dedicated_price_usd);
}
