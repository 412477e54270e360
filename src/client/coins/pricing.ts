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

/** Coins a customer can deploy now: a delisted coin or one coming soon is no offer. */
const offered = (rows: PriceRow[]) => rows.filter((r) => !r.delisted && !r.coming_soon);

/**
 * "From" prices of the two plans (the spec's plan table): the lowest daily price a
 * customer really pays now among offered coins, a campaign's price included (a "from"
 * above a price on offer would not be true). Coins without a cloud plan have no cloud price.
 */
export function planFloors(rows: PriceRow[]): { dedicated: PlanFloor; cloud: PlanFloor } {
  const listed = offered(rows);
  return {
    dedicated: floorOf(listed.map((r) => r.dedicated_price_usd)),
    cloud: floorOf(listed.flatMap((r) => (r.cloud_price_usd === null ? [] : [r.cloud_price_usd]))),
  };
}

/** The landing's "Pricing from": the lowest daily price of either plan; null when nothing is offered. */
export function lowestDailyPrice(rows: PriceRow[]): number | null {
  const { dedicated, cloud } = planFloors(rows);
  const prices = [dedicated, cloud].flatMap((f) => (f ? [f.daily] : []));
  return prices.length ? Math.min(...prices) : null;
}

/** Listed coins with a price campaign running, cheapest campaign first. */
export function campaignRows(rows: PriceRow[]): PriceRow[] {
  return offered(rows)
    .filter((r) => r.campaign)
    .sort((a, b) => a.dedicated_price_usd - b.dedicated_price_usd);
}
