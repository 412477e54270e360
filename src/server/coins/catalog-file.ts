import * as v from 'valibot';
import { campaignRefusal } from './campaign';
import { FAMILIES, FAMILY, type Family } from '../../shared/families';
import { parseUsd, type Micros } from '../../shared/money';
import { EXPLORER_PLACEHOLDER } from '../../shared/explorer';

/**
 * The catalog file (catalog/coins.json): data the operator edits, checked here with a
 * message that names the coin and the field. Amounts are decimal strings so no value
 * passes through a float on its way in.
 */
const decimal = (what: string, maxDecimals: number) =>
  v.pipe(
    v.string(`${what} must be a decimal string such as "1000" or "0.063"`),
    v.regex(
      new RegExp(`^\\d{1,15}(\\.\\d{1,${maxDecimals}})?$`),
      `${what} must be a decimal string with at most ${maxDecimals} decimals`,
    ),
  );
const usd = decimal('a USD price', 6);
const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'));
const httpUrl = v.pipe(
  v.string(),
  v.url('must be a URL'),
  v.check((s) => /^https?:\/\//.test(s), 'must be an http(s) URL'),
);

export { FAMILIES, type Family } from '../../shared/families';

/** An explorer page template: https, with its placeholder once. */
const explorerTemplate = (placeholder: string) =>
  v.pipe(
    v.string(),
    v.check((s) => /^https:\/\/[^\s{}]+/.test(s), 'must be an https URL'),
    v.check((s) => s.split(placeholder).length === 2, `must hold ${placeholder} once`),
  );

const CoinEntry = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/, 'must be a lowercase slug of letters and digits')),
  label: nonEmpty,
  ticker: v.pipe(v.string(), v.regex(/^[A-Z0-9]{2,10}$/, 'must be 2-10 capital letters or digits')),
  family: v.picklist(FAMILIES, `must be one of ${FAMILIES.join(', ')}`),
  flags: v.strictObject({ dip003: v.boolean(), dip003_restrict: v.boolean(), monero: v.boolean(), cloud: v.boolean() }),
  front_options: v.strictObject({ validator_evm: v.boolean() }),
  collateral: decimal('collateral', 8),
  dedicated_price: usd,
  cloud_price: usd,
  campaign: v.boolean(),
  campaign_prices: v.strictObject({ dedicated_price: usd, cloud_price: usd }),
  maintenance: v.boolean(),
  delisted: v.boolean(),
  kyd: v.boolean(),
  alerts: v.array(
    v.strictObject({
      icon: nonEmpty,
      type: v.picklist(['info', 'warning', 'danger']),
      title: nonEmpty,
      subtitle: v.string(),
    }),
  ),
  links: v.array(
    v.strictObject({ label: nonEmpty, icon: nonEmpty, value: httpUrl, type: v.picklist(['resource', 'social']) }),
  ),
  specifications: v.array(v.strictObject({ label: nonEmpty, value: nonEmpty })),
  reward: v.strictObject({
    block_time_s: v.pipe(v.number(), v.minValue(1, 'must be at least 1 second')),
    block_reward: decimal('block_reward', 8),
    node_share: v.pipe(
      decimal('node_share', 6),
      v.check((s) => Number(s) <= 1, 'must be between 0 and 1'),
    ),
    network_nodes: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
  }),
  market: v.strictObject({
    coingecko_id: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/, 'must be a CoinGecko id')),
    demo: v.strictObject({
      price: decimal('demo price', 9),
      volume_24h: decimal('demo volume', 2),
      market_cap: decimal('demo market cap', 2),
      change_24h_pct: v.pipe(v.string(), v.regex(/^-?\d{1,4}(\.\d{1,4})?$/, 'must be a percentage such as "-1.5"')),
    }),
  }),
  sources: v.pipe(v.array(nonEmpty), v.minLength(1, 'must name at least one source')),
  source_note: v.string(),
  /**
   * The coin's secret-key prefix (`base58Prefixes[SECRET_KEY]` in its chainparams.cpp, one
   * byte): the masternode key a classic node's masternode.conf names is made with it.
   * Without it Bitcoin's 0x80.
   */
  wif_prefix: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(0, 'must be 0-255'),
      v.maxValue(255, 'must be 0-255'),
    ),
  ),
  /** The coin's public block explorer; only where one is known (no link otherwise). */
  explorer: v.optional(
    v.strictObject({
      tx: explorerTemplate(EXPLORER_PLACEHOLDER.tx),
      address: explorerTemplate(EXPLORER_PLACEHOLDER.address),
    }),
  ),
  /** A profile of catalog/daemons.json; without it the family's simulator profile. */
  daemon: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, 'must be a daemon profile id'))),
});
type CoinEntry = v.InferOutput<typeof CoinEntry>;

const CatalogFile = v.strictObject({
  version: v.literal(1, 'must be 1'),
  updated: v.string(),
  coins: v.pipe(v.array(v.unknown()), v.minLength(1, 'must list at least one coin')),
});

/** What the platform keeps of a coin beyond its columns (the `details` JSON). */
export type CoinDetails = Pick<
  CoinEntry,
  'alerts' | 'links' | 'specifications' | 'sources' | 'source_note' | 'daemon' | 'wif_prefix' | 'explorer'
> & {
  reward: { block_time_s: number; block_reward: number; node_share: number; network_nodes: number };
  demo_market: { price: number; volume_24h: number; market_cap: number; change_24h_pct: number };
};

export type CatalogCoin = {
  id: string;
  label: string;
  ticker: string;
  family: Family;
  collateral: string;
  dedicated_price: Micros;
  cloud_price: Micros;
  campaign: boolean;
  campaign_dedicated_price: Micros;
  campaign_cloud_price: Micros;
  cloud: boolean;
  maintenance: boolean;
  delisted: boolean;
  kyd: boolean;
  dip003: boolean;
  dip003_restrict: boolean;
  monero: boolean;
  validator_evm: boolean;
  market_id: string;
  details: CoinDetails;
};

export class CatalogError extends Error {}

function issueText(where: string, issues: v.BaseIssue<unknown>[]): string {
  return issues.map((i) => `${where}${v.getDotPath(i) ? `.${v.getDotPath(i)}` : ''}: ${i.message}`).join('\n');
}

/** Parses and checks a whole catalog file; throws CatalogError naming coin and field. */
export function parseCatalog(text: string, fileName = 'catalog'): CatalogCoin[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CatalogError(`${fileName}: not valid JSON (${(err as Error).message})`);
  }
  const file = v.safeParse(CatalogFile, raw);
  if (!file.success) throw new CatalogError(issueText(fileName, file.issues));

  const problems: string[] = [];
  const coins: CatalogCoin[] = [];
  const seen = new Set<string>();
  file.output.coins.forEach((entry, index) => {
    const id = typeof (entry as { id?: unknown })?.id === 'string' ? (entry as { id: string }).id : `#${index}`;
    const parsed = v.safeParse(CoinEntry, entry);
    if (!parsed.success) return problems.push(issueText(`coin ${id}`, parsed.issues));
    const c = parsed.output;
    if (seen.has(c.id)) return problems.push(`coin ${c.id}.id: appears twice`);
    seen.add(c.id);
    if (c.flags.dip003_restrict && FAMILY[c.family].configView !== 'dip003_restrict')
      problems.push(`coin ${c.id}.flags.dip003_restrict: only for family dip003_restrict`);
    if (c.front_options.validator_evm !== FAMILY[c.family].validator)
      problems.push(`coin ${c.id}.front_options.validator_evm: must be true exactly for family evm`);
    const coin = toCatalogCoin(c);
    const campaign = campaignRefusal({
      dedicated: coin.dedicated_price,
      cloud: coin.cloud_price,
      campaignDedicated: coin.campaign_dedicated_price,
      campaignCloud: coin.campaign_cloud_price,
    });
    if (campaign)
      return problems.push(
        `coin ${c.id}.campaign_prices.${campaign.field === 'campaign_dedicated' ? 'dedicated_price' : 'cloud_price'}: ${campaign.message}`,
      );
    coins.push(coin);
  });
  if (problems.length) throw new CatalogError(problems.join('\n'));
  return coins;
}

function toCatalogCoin(c: CoinEntry): CatalogCoin {
  return {
    id: c.id,
    label: c.label,
    ticker: c.ticker,
    family: c.family,
    collateral: c.collateral,
    dedicated_price: parseUsd(c.dedicated_price),
    cloud_price: parseUsd(c.cloud_price),
    campaign: c.campaign,
    campaign_dedicated_price: parseUsd(c.campaign_prices.dedicated_price),
    campaign_cloud_price: parseUsd(c.campaign_prices.cloud_price),
    cloud: c.flags.cloud,
    maintenance: c.maintenance,
    delisted: c.delisted,
    kyd: c.kyd,
    dip003: c.flags.dip003,
    dip003_restrict: c.flags.dip003_restrict,
    monero: c.flags.monero,
    validator_evm: c.front_options.validator_evm,
    market_id: c.market.coingecko_id,
    details: {
      alerts: c.alerts,
      links: c.links,
      specifications: c.specifications,
      sources: c.sources,
      source_note: c.source_note,
      daemon: c.daemon,
      wif_prefix: c.wif_prefix,
      explorer: c.explorer,
      reward: {
        block_time_s: c.reward.block_time_s,
        block_reward: Number(c.reward.block_reward),
        node_share: Number(c.reward.node_share),
        network_nodes: c.reward.network_nodes,
      },
      demo_market: {
        price: Number(c.market.demo.price),
        volume_24h: Number(c.market.demo.volume_24h),
        market_cap: Number(c.market.demo.market_cap),
        change_24h_pct: Number(c.market.demo.change_24h_pct),
      },
    },
  };
}
