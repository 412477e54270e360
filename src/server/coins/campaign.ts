import { formatUsdExact } from '../../shared/money';

/** A campaign is a discount: its price is below the regular one, for each plan. */
export function campaignRefusal(p: {
  dedicated: number;
  cloud: number;
  campaignDedicated: number;
  campaignCloud: number;
}): { field: string; message: string } | null {
  const usd = (m: number) => `$${formatUsdExact(m)}`;
  if (p.campaignDedicated >= p.dedicated)
    return {
      field: 'campaign_dedicated',
      message: `The campaign dedicated price (${usd(p.campaignDedicated)}/day) must be below the regular one (${usd(p.dedicated)}/day): a campaign is a discount.`,
    };
  if (p.campaignCloud >= p.cloud)
    return {
      field: 'campaign_cloud',
      message: `The campaign cloud price (${usd(p.campaignCloud)}/day) must be below the regular one (${usd(p.cloud)}/day): a campaign is a discount.`,
    };
  return null;
}
