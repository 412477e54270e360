import { microsToUsd, type Micros } from '../../shared/money';
import type { CoinRecord } from '../db/schema';

/** The daily prices a customer pays now: campaign prices while a campaign runs. */
export function currentPrices(c: CoinRecord): { dedicated: Micros; cloud: Micros | null } {
  const campaign = c.campaign === 1;
  return {
    dedicated: campaign ? c.campaign_dedicated_price : c.dedicated_price,
    cloud: c.cloud === 1 ? (campaign ? c.campaign_cloud_price : c.cloud_price) : null,
  };
}

/** `host_price` of the coin list: the cheapest plan available, USD per day. */
export function hostPriceUsd(c: CoinRecord): number {
  const p = currentPrices(c);
  return microsToUsd(p.cloud === null ? p.dedicated : Math.min(p.dedicated, p.cloud));
}
