import fs from 'node:fs';
import path from 'node:path';
import { formatUsdExact, parseUsd } from '../../shared/money';
import type { CliCommand } from '../db/cli-command';
import { asUsage, parseFlags, UsageError } from '../kernel/cli';
import type { DB } from '../db/open';
import type { CoinRecord } from '../db/schema';
import { fail } from '../kernel/errors';
import { readMarketStatus } from '../market/refresher';
import { applyCatalogImport, delistCoin, setCoinFlag, setCoinPrices, type CatalogFlag } from './operator';
import { findCoin, listCoins } from './queries';
import { coinsPorts } from './ports';

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : 'never');

async function requireCoin(db: DB, id: string | undefined) {
  if (!id) throw new UsageError('name a coin id (see `catalog list`)');
  const coin = await findCoin(db, id.toLowerCase());
  if (!coin) fail('NOT_FOUND', `no coin "${id}" (see \`catalog list\`)`);
  return coin;
}

function onOff(value: string | undefined, what: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`${what} takes "on" or "off"`);
  return value === 'on';
}

function price(text: string, flag: string) {
  try {
    const micros = parseUsd(text);
    if (micros < 0) throw new RangeError('negative');
    return micros;
  } catch {
    throw new UsageError(`--${flag} must be a USD amount per day such as 0.13 (at most 6 decimals, not negative)`);
  }
}

/** `catalog <flag> <coin> on|off`: sets one of a coin's switches and says what it now is. */
function flagCommand(flag: CatalogFlag, summary: string, said: (coin: CoinRecord, on: boolean) => string): CliCommand {
  return {
    usage: `catalog ${flag} <coin> on|off`,
    summary,
    async run(db, args, io) {
      const coin = await requireCoin(db, args[0]);
      const on = onOff(args[1], `catalog ${flag}`);
      await asUsage(() => setCoinFlag(db, io.by, coin.id, flag, on));
      io.out(`${coin.id}: ${said(coin, on)}`);
    },
  };
}

export const catalogCommands: Record<string, CliCommand> = {
  'catalog list': {
    usage: 'catalog list',
    summary: 'list coins with prices, flags and hosted nodes; show the market-data provider',
    async run(db, _args, io) {
      const [coins, hosted, market] = await Promise.all([
        listCoins(db),
        coinsPorts().hostedCounts(db),
        readMarketStatus(db),
      ]);
      io.out(
        market
          ? `market data: ${market.provider === 'demo' ? 'demo data (offline, invented numbers)' : market.provider}; last refresh ${iso(market.last_success_at)}${market.last_error ? `; last error ${iso(market.last_error_at)}: ${market.last_error}` : ''}`
          : 'market data: not refreshed yet',
      );
      io.out(['id', 'ticker', 'family', 'collateral', 'dedicated/day', 'cloud/day', 'flags', 'hosted'].join('\t'));
      for (const c of coins) {
        const flags =
          [c.campaign && 'campaign', c.maintenance && 'maintenance', c.delisted && 'delisted', !c.cloud && 'no-cloud']
            .filter(Boolean)
            .join(',') || '-';
        io.out(
          [
            c.id,
            c.ticker,
            c.family,
            c.collateral,
            formatUsdExact(c.dedicated_price),
            formatUsdExact(c.cloud_price),
            flags,
            hosted.get(c.id) ?? 0,
          ].join('\t'),
        );
      }
    },
  },
  'catalog import': {
    usage: 'catalog import <file.json>',
    summary: 'add or update coins from a catalog file (checked first; nothing changes if any coin is invalid)',
    async run(db, args, io) {
      if (args.length !== 1) throw new UsageError('catalog import takes one file');
      const file = path.resolve(args[0]);
      if (!fs.existsSync(file)) throw new UsageError(`no file ${file}`);
      const r = await asUsage(() => applyCatalogImport(db, io.by, fs.readFileSync(file, 'utf8'), file));
      io.out(`imported ${file}: ${r.added.length} added, ${r.updated.length} updated`);
    },
  },
  'catalog set-price': {
    usage:
      'catalog set-price <coin> [--dedicated <usd/day>] [--cloud <usd/day>] [--campaign-dedicated <usd/day>] [--campaign-cloud <usd/day>]',
    summary: 'set the daily hosting prices of a coin, regular and campaign (a campaign price is below the regular one)',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['dedicated', 'cloud', 'campaign-dedicated', 'campaign-cloud']);
      if (positional.length !== 1) throw new UsageError('catalog set-price takes one coin');
      const given = (name: string) => (flags[name] ? price(flags[name], name) : undefined);
      const prices = {
        dedicated: given('dedicated'),
        cloud: given('cloud'),
        campaignDedicated: given('campaign-dedicated'),
        campaignCloud: given('campaign-cloud'),
      };
      if (Object.values(prices).every((p) => p === undefined))
        throw new UsageError('give --dedicated, --cloud, --campaign-dedicated and/or --campaign-cloud');
      const coin = await requireCoin(db, positional[0]);
      const after = await asUsage(() => setCoinPrices(db, io.by, coin.id, prices));
      io.out(
        `${coin.id}: dedicated $${formatUsdExact(after.dedicated_price)}/day, cloud $${formatUsdExact(after.cloud_price)}/day; campaign dedicated $${formatUsdExact(after.campaign_dedicated_price)}/day, cloud $${formatUsdExact(after.campaign_cloud_price)}/day`,
      );
    },
  },
  'catalog campaign': flagCommand(
    'campaign',
    'switch campaign prices for a coin',
    (coin, on) =>
      `campaign ${on ? `on (dedicated $${formatUsdExact(coin.campaign_dedicated_price)}, cloud $${formatUsdExact(coin.campaign_cloud_price)} per day)` : 'off'}`,
  ),
  'catalog maintenance': flagCommand(
    'maintenance',
    'disable or enable deployments of a coin',
    (_, on) => `maintenance ${on ? 'on' : 'off'}`,
  ),
  'catalog cloud': flagCommand(
    'cloud',
    'offer or withdraw the cloud plan of a coin (running nodes keep their plan)',
    (_, on) => `cloud plan ${on ? 'offered' : 'withdrawn'}`,
  ),
  'catalog delist': {
    usage: 'catalog delist <coin>',
    summary: 'delist a coin: no new deployments; it leaves the list once no hosted node remains',
    async run(db, args, io) {
      if (args.length !== 1) throw new UsageError('catalog delist takes one coin');
      const coin = await requireCoin(db, args[0]);
      if (!(await delistCoin(db, io.by, coin.id))) return io.out(`${coin.id} is already delisted`);
      io.out(
        `${coin.id}: delisted (${(await coinsPorts().hostedCounts(db)).get(coin.id) ?? 0} hosted nodes keep running)`,
      );
    },
  },
};
