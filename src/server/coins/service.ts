import { formatNumber } from '../../shared/format';
import { income, roiPercent } from '../../shared/roi';
import type { CoinDetail, CoinRow, GetCoinsOutput } from '../../shared/schemas/coins';
import type { Context } from '../rpc/context';
import type { CoinRecord, MarketQuote } from '../db/schema';
import { fail } from '../kernel/errors';
import { allQuotes, findQuote, lastHistory } from '../market/quotes';
import type { ExchangeTicker } from '../market/provider';
import { asChange, asNumber, asPercent, asUsd } from './display';
import { microsToUsd } from '../../shared/money';
import { currentPrices, hostPriceUsd } from './prices';
import { coinDetails, findCoin, listCoins } from './queries';
import { offersOf } from './offer';
import { coinsPorts } from './ports';

/** Observations older than this do not describe the chain any more (the monitor checks every minute by default). */
const CHAIN_FRESH_MS = 15 * 60_000;

type Ctx = Pick<Context, 'db' | 'config' | 'fleet'>;

/** Figures of one coin from its catalog entry, its market quote and the hosted count. */
function figures(c: CoinRecord, quote: MarketQuote | undefined) {
  const d = coinDetails(c);
  const collateral = Number(c.collateral);
  const roi = roiPercent(d.reward, collateral);
  const price = quote?.price_usd ?? null;
  return {
    details: d,
    collateral,
    roi,
    price,
    nodeValue: price === null ? null : collateral * price,
    income: price === null || roi === null ? null : income(collateral, price, roi),
  };
}

const providerName = (quotes: MarketQuote[]) => quotes[0]?.provider ?? 'none';

export async function getCoins(ctx: Ctx): Promise<GetCoinsOutput> {
  const [coins, quotes, hosted] = await Promise.all([
    listCoins(ctx.db),
    allQuotes(ctx.db),
    coinsPorts().hostedCounts(ctx.db),
  ]);
  const offers = await offersOf(ctx.db, coins, ctx.fleet);
  const quoteOf = new Map(quotes.map((q) => [q.coin_id, q]));
  // A delisted coin stays visible only while customers still host nodes of it.
  const shown = coins.filter((c) => c.delisted === 0 || (hosted.get(c.id) ?? 0) > 0);
  const data: Record<string, CoinRow> = {};
  for (const c of shown) {
    const q = quoteOf.get(c.id);
    const f = figures(c, q);
    data[c.id] = {
      id: c.id,
      label: c.label,
      ticker: c.ticker,
      logo: `${ctx.config.coinLogoUrl}/${c.id}.svg`,
      collateral: asNumber(f.collateral, { suffix: ` ${c.ticker}` }),
      masternode_value: asUsd(f.nodeValue),
      roi: asPercent(f.roi, { mustsee: true }),
      revenue_mo: asUsd(f.income?.monthly ?? null),
      hosted_mns: asNumber(hosted.get(c.id) ?? 0, { round: 0 }),
      price_change: asChange(q?.change_24h_pct ?? null),
      host_price: hostPriceUsd(c),
      delisted: c.delisted === 1,
      maintenance: c.maintenance === 1,
      coming_soon: !offers.get(c.id)!.offered,
    };
  }
  const order = shown
    .map((c, i) => ({ id: c.id, i, n: hosted.get(c.id) ?? 0 }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.id);
  const updated = quotes.reduce((m, q) => Math.max(m, q.updated_at), 0);
  return {
    order,
    data,
    market_provider: providerName(quotes),
    market_updated_at: updated ? new Date(updated).toISOString() : null,
  };
}

export async function getStats(ctx: Ctx) {
  const [coins, quotes, hosted, real] = await Promise.all([
    listCoins(ctx.db),
    allQuotes(ctx.db),
    coinsPorts().hostedCounts(ctx.db),
    coinsPorts().realNodeCounts(ctx.db),
  ]);
  const quoteOf = new Map(quotes.map((q) => [q.coin_id, q]));
  let total_mns = 0;
  let total_mn_value = 0;
  for (const c of coins) {
    total_mns += hosted.get(c.id) ?? 0;
    // Only collateral that exists: simulated nodes hold none.
    total_mn_value += (real.get(c.id) ?? 0) * Number(c.collateral) * (quoteOf.get(c.id)?.price_usd ?? 0);
  }
  return {
    success: true as const,
    data: {
      total_mns,
      total_mn_value: Math.round(total_mn_value * 100) / 100,
      supported_mns: coins.filter((c) => c.delisted === 0).length,
    },
  };
}

export async function requireCoin(ctx: Pick<Context, 'db'>, id: string): Promise<CoinRecord> {
  const coin = await findCoin(ctx.db, id);
  if (!coin) fail('NOT_FOUND', `Unknown coin "${id}".`);
  return coin;
}

const money = (n: number) => `$${formatNumber(n)}`;

export async function getCoin(ctx: Ctx, id: string): Promise<{ success: true; data: CoinDetail }> {
  const c = await requireCoin(ctx, id);
  const [quote, history, hosted, chain] = await Promise.all([
    findQuote(ctx.db, c.id),
    lastHistory(ctx.db, c.id, 60),
    coinsPorts().hostedCounts(ctx.db),
    coinsPorts().chainObservation(ctx.db, c.id, Date.now() - CHAIN_FRESH_MS),
  ]);
  const offer = (await offersOf(ctx.db, [c], ctx.fleet)).get(c.id)!;
  const f = figures(c, quote);
  const prices = currentPrices(c);
  const exchanges = quote ? (JSON.parse(quote.exchanges) as ExchangeTicker[]) : [];
  const totalVolume = exchanges.reduce((s, t) => s + t.volume_usd, 0);
  const stat = (
    label: string,
    variable: string,
    value: number | string | null,
    format: CoinDetail['statistics'][number]['format'],
    extra: { prefix?: string; suffix?: string; round?: number } = {},
  ) => ({
    label,
    variable,
    value: typeof value === 'number' && !Number.isFinite(value) ? null : value,
    format,
    round: extra.round ?? 2,
    prefix: extra.prefix ?? '',
    suffix: extra.suffix ?? '',
  });
  const labels = history.map((h) => new Date(h.at).toISOString());
  return {
    success: true,
    data: {
      id: c.id,
      label: c.label,
      ticker: c.ticker,
      collateral: f.collateral,
      roi: f.roi,
      cloud: c.cloud === 1,
      maintenance: c.maintenance === 1,
      coming_soon: !offer.offered,
      delisted: c.delisted === 1,
      kyd: c.kyd === 1,
      logo: `${ctx.config.coinLogoUrl}/${c.id}.svg`,
      alerts: f.details.alerts,
      links: f.details.links,
      specifications: specificationRows(c, f.details, stat),
      statistics: [
        stat('Price', 'price', f.price, 'price', { prefix: '$' }),
        stat('Node value', 'masternode_value', f.nodeValue, 'usd', { prefix: '$' }),
        stat('Yearly ROI', 'roi', f.roi, 'percent', { suffix: '%' }),
        stat('Monthly income per node', 'revenue_mo', f.income?.monthly ?? null, 'usd', { prefix: '$' }),
        stat('Nodes on the network', 'network_nodes', f.details.reward.network_nodes, 'number', { round: 0 }),
        stat('Hosted with us', 'hosted_mns', hosted.get(c.id) ?? 0, 'number', { round: 0 }),
        stat('Dedicated plan', 'dedicated_price', microsToUsd(prices.dedicated), 'usd', {
          prefix: '$',
          suffix: '/day',
          round: 3,
        }),
        stat(
          'Cloud plan',
          'cloud_price',
          prices.cloud === null ? 'not offered' : microsToUsd(prices.cloud),
          prices.cloud === null ? 'text' : 'usd',
          prices.cloud === null ? {} : { prefix: '$', suffix: '/day', round: 3 },
        ),
      ],
      exchanges: exchanges.map((t) => ({
        exchange: { name: t.exchange },
        pair: `${t.base}/${t.target}`,
        price: t.price_usd,
        volume: t.volume_usd,
        volume_text: money(t.volume_usd),
        volume_percent: totalVolume > 0 ? Math.round((t.volume_usd / totalVolume) * 10_000) / 100 : 0,
        link: t.link,
      })),
      charts: [
        { name: 'Price', labels, values: history.map((h) => h.price_usd) },
        { name: 'Market cap', labels, values: history.map((h) => h.market_cap_usd) },
        { name: 'Volume', labels, values: history.map((h) => h.volume_24h_usd) },
      ],
      // Chain data from the fleet's own nodes of this coin (what the monitor last saw).
      wallet: chain?.wallet ?? null,
      latest_block: chain?.latestBlock ?? null,
      chain_simulated: chain?.simulated ?? false,
      market_data: quote
        ? {
            price: quote.price_usd,
            total_volume_text: money(quote.volume_24h_usd),
            market_cap: quote.market_cap_usd,
            market_cap_text: money(quote.market_cap_usd),
            price_change: quote.change_24h_pct ?? 0,
          }
        : null,
      dedicated_price: microsToUsd(prices.dedicated),
      cloud_price: prices.cloud === null ? 0 : microsToUsd(prices.cloud),
      market_provider: quote?.provider ?? 'none',
    },
  };
}

/**
 * The figures the ROI is computed from, then the catalog's own rows. A catalog row that
 * names one of the computed figures (e.g. "Block time") is left out: one label, one row.
 */
function specificationRows(
  c: CoinRecord,
  d: ReturnType<typeof coinDetails>,
  stat: (
    label: string,
    variable: string,
    value: number | string | null,
    format: CoinDetail['statistics'][number]['format'],
    extra?: { prefix?: string; suffix?: string; round?: number },
  ) => CoinDetail['statistics'][number],
) {
  const computed = [
    stat('Ticker', 'ticker', c.ticker, 'text'),
    stat('Collateral', 'collateral', Number(c.collateral), 'number', { suffix: ` ${c.ticker}` }),
    stat('Block time', 'block_time', d.reward.block_time_s, 'number', { suffix: ' s', round: 0 }),
    stat('Block reward', 'block_reward', d.reward.block_reward, 'number', { suffix: ` ${c.ticker}` }),
    stat('Node share of reward', 'node_share', d.reward.node_share * 100, 'percent', { suffix: '%' }),
  ];
  const taken = new Set(computed.map((r) => r.label.toLowerCase()));
  return [
    ...computed,
    ...d.specifications.flatMap((sp, i) =>
      taken.has(sp.label.trim().toLowerCase()) ? [] : [stat(sp.label, `spec_${i}`, sp.value, 'text')],
    ),
  ];
}

export async function getDetailed(ctx: Ctx) {
  const [coins, quotes, hosted] = await Promise.all([
    listCoins(ctx.db),
    allQuotes(ctx.db),
    coinsPorts().hostedCounts(ctx.db),
  ]);
  const offers = await offersOf(ctx.db, coins, ctx.fleet);
  const quoteOf = new Map(quotes.map((q) => [q.coin_id, q]));
  return {
    success: true as const,
    market_provider: providerName(quotes),
    data: coins.map((c) => {
      const q = quoteOf.get(c.id);
      const f = figures(c, q);
      const p = currentPrices(c);
      return {
        id: c.id,
        label: c.label,
        ticker: c.ticker,
        price_usd: f.price,
        price_change_24h_pct: q?.change_24h_pct ?? null,
        volume_24h_usd: q?.volume_24h_usd ?? null,
        market_cap_usd: q?.market_cap_usd ?? null,
        collateral: f.collateral,
        masternode_value_usd: f.nodeValue,
        roi_pct: f.roi,
        income_usd: f.income,
        network_nodes: f.details.reward.network_nodes,
        hosted_mns: hosted.get(c.id) ?? 0,
        dedicated_price_usd: microsToUsd(p.dedicated),
        cloud_price_usd: p.cloud === null ? null : microsToUsd(p.cloud),
        campaign: c.campaign === 1,
        regular_dedicated_price_usd: microsToUsd(c.dedicated_price),
        regular_cloud_price_usd: c.cloud === 1 ? microsToUsd(c.cloud_price) : null,
        delisted: c.delisted === 1,
        maintenance: c.maintenance === 1,
        coming_soon: !offers.get(c.id)!.offered,
        market_updated_at: q ? new Date(q.updated_at).toISOString() : null,
      };
    }),
  };
}

/** The coin as the deploy page needs it; `simulated` says whether the fleet's simulator serves its nodes. */
export async function getDeployInfo(ctx: Ctx, id: string, simulated: (c: CoinRecord) => boolean) {
  const c = await requireCoin(ctx, id);
  if (c.delisted === 1) fail('NOT_FOUND', `${c.label} is delisted: new nodes cannot be deployed.`);
  const offer = (await offersOf(ctx.db, [c], ctx.fleet)).get(c.id)!;
  return {
    success: true as const,
    data: {
      id: c.id,
      ticker: c.ticker,
      label: c.label,
      collateral: Number(c.collateral),
      dedicated_price: microsToUsd(c.dedicated_price),
      cloud_price: microsToUsd(c.cloud_price),
      cloud: c.cloud === 1,
      campaign: c.campaign === 1,
      campaign_prices: {
        dedicated_price: microsToUsd(c.campaign_dedicated_price),
        cloud_price: microsToUsd(c.campaign_cloud_price),
      },
      maintenance: c.maintenance === 1,
      coming_soon: !offer.offered,
      coming_soon_reason: offer.offered ? null : offer.reason,
      monero: c.monero === 1,
      dip003: c.dip003 === 1,
      dip003_restrict: c.dip003_restrict === 1,
      front_options: { validator_evm: c.validator_evm === 1 },
      family: c.family,
      simulated: simulated(c),
    },
  };
}
