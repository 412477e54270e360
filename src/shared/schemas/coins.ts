import { z } from 'zod';

/** Coin ids are stable lowercase slugs used in URLs and calls ("dash", "zen42"). */
export const coinId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,32}$/, 'must be a coin id such as "dash"');

export const coinQuery = z.object({ coin: coinId }).strict();

/**
 * The spec's display object: a number plus how to show it. `format` picks the rule of
 * src/shared/format.ts; `round` the decimals where the rule allows a choice; `color`
 * "green"/"red" for changes; `mustsee` marks the figure to emphasise.
 */
export const displayValue = z.object({
  value: z.number().nullable(),
  round: z.number().int(),
  prefix: z.string(),
  suffix: z.string(),
  format: z.enum(['number', 'price', 'percent', 'usd']),
  color: z.enum(['green', 'red', '']),
  mustsee: z.boolean(),
});
export type DisplayValue = z.infer<typeof displayValue>;

export const coinRow = z.object({
  id: z.string(),
  label: z.string(),
  ticker: z.string(),
  /** Logo URL (COIN_LOGO_URL base). */
  logo: z.string(),
  collateral: displayValue,
  masternode_value: displayValue,
  roi: displayValue,
  revenue_mo: displayValue,
  hosted_mns: displayValue,
  price_change: displayValue,
  /** USD per day for the cheapest available plan; monthly fee = 30 × this; 0 means free. */
  host_price: z.number(),
  delisted: z.boolean(),
  maintenance: z.boolean(),
  /** Not offered yet (production: its daemon is not verified and checked on a host): shown as "Coming soon", no deploy. */
  coming_soon: z.boolean(),
});
export type CoinRow = z.infer<typeof coinRow>;

export const getCoinsOutput = z.object({
  /** Coin ids, hosted nodes first (the list's default order). */
  order: z.array(z.string()),
  data: z.record(z.string(), coinRow),
  /** Which market-data provider fed these numbers ("demo" for the offline demo data). */
  market_provider: z.string(),
  market_updated_at: z.string().nullable(),
});
export type GetCoinsOutput = z.infer<typeof getCoinsOutput>;

export const coinAlert = z.object({
  icon: z.string(),
  type: z.enum(['info', 'warning', 'danger']),
  title: z.string(),
  subtitle: z.string(),
});
export const coinLink = z.object({
  label: z.string(),
  icon: z.string(),
  value: z.string(),
  type: z.enum(['resource', 'social']),
});

export const statistic = z.object({
  label: z.string(),
  value: z.union([z.number(), z.string()]).nullable(),
  variable: z.string(),
  round: z.number().int(),
  format: z.enum(['number', 'price', 'percent', 'usd', 'text']),
  prefix: z.string(),
  suffix: z.string(),
});

export const exchangeRow = z.object({
  exchange: z.object({ name: z.string() }),
  pair: z.string(),
  price: z.number(),
  volume: z.number(),
  volume_text: z.string(),
  volume_percent: z.number(),
  link: z.string(),
});

export const chart = z.object({ name: z.string(), labels: z.array(z.string()), values: z.array(z.number()) });

export const coinDetail = z.object({
  id: z.string(),
  label: z.string(),
  ticker: z.string(),
  collateral: z.number(),
  roi: z.number().nullable(),
  cloud: z.boolean(),
  maintenance: z.boolean(),
  /** Not offered yet (production: its daemon is not verified and checked on a host): shown as "Coming soon", no deploy. */
  coming_soon: z.boolean(),
  delisted: z.boolean(),
  kyd: z.boolean(),
  logo: z.string(),
  alerts: z.array(coinAlert),
  links: z.array(coinLink),
  specifications: z.array(statistic),
  statistics: z.array(statistic),
  exchanges: z.array(exchangeRow),
  charts: z.array(chart),
  wallet: z
    .object({ version: z.string(), protocol_version: z.string(), connections: z.number().nullable() })
    .nullable(),
  latest_block: z.number().nullable(),
  /** True when `wallet` and `latest_block` come from simulated nodes (demo): clients mark them "Simulated". */
  chain_simulated: z.boolean(),
  market_data: z
    .object({
      price: z.number(),
      total_volume_text: z.string(),
      market_cap: z.number(),
      market_cap_text: z.string(),
      price_change: z.number(),
    })
    .nullable(),
  /** Hosting prices (USD/day) for the income calculator and the deploy link. */
  dedicated_price: z.number(),
  cloud_price: z.number(),
  market_provider: z.string(),
});
export type CoinDetail = z.infer<typeof coinDetail>;

export const getCoinOutput = z.object({ success: z.literal(true), data: coinDetail });

export const statsOutput = z.object({
  success: z.literal(true),
  data: z.object({ total_mns: z.number().int(), total_mn_value: z.number(), supported_mns: z.number().int() }),
});
export type StatsOutput = z.infer<typeof statsOutput>;

/** GET /public_api/get_detailed: the full market table, one row per listed coin. */
export const detailedRow = z.object({
  id: z.string(),
  label: z.string(),
  ticker: z.string(),
  price_usd: z.number().nullable(),
  price_change_24h_pct: z.number().nullable(),
  volume_24h_usd: z.number().nullable(),
  market_cap_usd: z.number().nullable(),
  collateral: z.number(),
  masternode_value_usd: z.number().nullable(),
  roi_pct: z.number().nullable(),
  income_usd: z.object({ yearly: z.number(), monthly: z.number(), weekly: z.number(), daily: z.number() }).nullable(),
  network_nodes: z.number().int(),
  hosted_mns: z.number().int(),
  /** What a customer pays now per day (the campaign price while a campaign runs). */
  dedicated_price_usd: z.number(),
  cloud_price_usd: z.number().nullable(),
  /** A price campaign runs: the regular prices below are what the plan costs without it. */
  campaign: z.boolean(),
  regular_dedicated_price_usd: z.number(),
  regular_cloud_price_usd: z.number().nullable(),
  delisted: z.boolean(),
  maintenance: z.boolean(),
  /** Not offered yet (production: its daemon is not verified and checked on a host): shown as "Coming soon", no deploy. */
  coming_soon: z.boolean(),
  market_updated_at: z.string().nullable(),
});
export const detailedOutput = z.object({
  success: z.literal(true),
  market_provider: z.string(),
  data: z.array(detailedRow),
});

/** The deploy-info coin object (deployment-and-nodes.md section 3). */
export const deployInfoCoin = z.object({
  id: z.string(),
  ticker: z.string(),
  label: z.string(),
  collateral: z.number(),
  dedicated_price: z.number(),
  cloud_price: z.number(),
  cloud: z.boolean(),
  campaign: z.boolean(),
  campaign_prices: z.object({ dedicated_price: z.number(), cloud_price: z.number() }),
  maintenance: z.boolean(),
  /** Not offered yet (production: its daemon is not verified and checked on a host): shown as "Coming soon", no deploy. */
  coming_soon: z.boolean(),
  /** Why not, in the customer's words (null when offered). */
  coming_soon_reason: z.string().nullable(),
  monero: z.boolean(),
  dip003: z.boolean(),
  dip003_restrict: z.boolean(),
  front_options: z.object({ validator_evm: z.boolean() }),
  /** The coin's family (src/shared/families.ts): which wizard and rules apply. */
  family: z.string(),
  /** Its nodes run on the platform's coin-daemon simulator (a demo: no real chain, no rewards). */
  simulated: z.boolean(),
});
export type DeployInfoCoin = z.infer<typeof deployInfoCoin>;
export const deployInfoOutput = z.object({ success: z.literal(true), data: deployInfoCoin });
