import fs from 'node:fs';
import path from 'node:path';
import { formatUsdExact, parseUsd } from '../../shared/money';
import type { CliCommand } from '../cli/types';
import { parseFlags, UsageError } from '../cli/types';
import type { DB } from '../db/open';
import { insertEvent } from '../events/queries';
import { readMarketStatus } from '../market/refresher';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { CatalogError } from './catalog-file';
import { importCatalog } from './import';
import { findCoin, hostedCounts, listCoins, updateCoin } from './queries';
import type { CoinsTable } from '../db/schema';
import type { Updateable } from 'kysely';

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : 'never');

async function requireCoin(db: DB, id: string | undefined) {
  if (!id) throw new UsageError('name a coin id (see `catalog list`)');
  const coin = await findCoin(db, id.toLowerCase());
  if (!coin) throw new UsageError(`no coin "${id}" (see \`catalog list\`)`);
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

/** Changes one coin, logs the action and tells open browsers to refetch, in one transaction. */
async function change(db: DB, by: OperatorActor, id: string, patch: Updateable<CoinsTable>, action: string, detail: Record<string, unknown>) {
  await db.transaction().execute(async (trx) => {
    await updateCoin(trx, id, patch);
    await logOperatorAction(trx, by, action, { coin: id, ...detail });
    await insertEvent(trx, null, 'update_stats', {});
  });
}

export const catalogCommands: Record<string, CliCommand> = {
  'catalog list': {
    usage: 'catalog list',
    summary: 'list coins with prices, flags and hosted nodes; show the market-data provider',
    async run(db, _args, io) {
      const [coins, hosted, market] = await Promise.all([listCoins(db), hostedCounts(db), readMarketStatus(db)]);
      io.out(
        market
          ? `market data: ${market.provider === 'demo' ? 'demo data (offline, invented numbers)' : market.provider}; last refresh ${iso(market.last_success_at)}${market.last_error ? `; last error ${iso(market.last_error_at)}: ${market.last_error}` : ''}`
          : 'market data: not refreshed yet',
      );
      io.out(['id', 'ticker', 'family', 'collateral', 'dedicated/day', 'cloud/day', 'flags', 'hosted'].join('\t'));
      for (const c of coins) {
        const flags = [c.campaign && 'campaign', c.maintenance && 'maintenance', c.delisted && 'delisted', !c.cloud && 'no-cloud'].filter(Boolean).join(',') || '-';
        io.out([c.id, c.ticker, c.family, c.collateral, formatUsdExact(c.dedicated_price), formatUsdExact(c.cloud_price), flags, hosted.get(c.id) ?? 0].join('\t'));
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
      try {
        const r = await importCatalog(db, file, 'replace');
        await logOperatorAction(db, io.by, 'catalog import', { file, added: r.added, updated: r.updated });
        await insertEvent(db, null, 'update_stats', {});
        io.out(`imported ${file}: ${r.added.length} added, ${r.updated.length} updated`);
      } catch (err) {
        if (err instanceof CatalogError) throw new UsageError(`the catalog file is invalid, nothing was imported:\n${err.message}`);
        throw err;
      }
    },
  },
  'catalog set-price': {
    usage: 'catalog set-price <coin> [--dedicated <usd/day>] [--cloud <usd/day>]',
    summary: 'set the daily hosting prices of a coin',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['dedicated', 'cloud']);
      if (positional.length !== 1) throw new UsageError('catalog set-price takes one coin');
      if (!flags.dedicated && !flags.cloud) throw new UsageError('give --dedicated and/or --cloud');
      const coin = await requireCoin(db, positional[0]);
      const patch: Updateable<CoinsTable> = {};
      if (flags.dedicated) patch.dedicated_price = price(flags.dedicated, 'dedicated');
      if (flags.cloud) patch.cloud_price = price(flags.cloud, 'cloud');
      await change(db, io.by, coin.id, patch, 'catalog set-price', { dedicated: patch.dedicated_price, cloud: patch.cloud_price });
      const after = (await findCoin(db, coin.id))!;
      io.out(`${coin.id}: dedicated $${formatUsdExact(after.dedicated_price)}/day, cloud $${formatUsdExact(after.cloud_price)}/day`);
    },
  },
  'catalog campaign': {
    usage: 'catalog campaign <coin> on|off',
    summary: 'switch campaign prices for a coin',
    async run(db, args, io) {
      const coin = await requireCoin(db, args[0]);
      const on = onOff(args[1], 'catalog campaign');
      await change(db, io.by, coin.id, { campaign: on ? 1 : 0 }, 'catalog campaign', { on });
      io.out(`${coin.id}: campaign ${on ? `on (dedicated $${formatUsdExact(coin.campaign_dedicated_price)}, cloud $${formatUsdExact(coin.campaign_cloud_price)} per day)` : 'off'}`);
    },
  },
  'catalog maintenance': {
    usage: 'catalog maintenance <coin> on|off',
    summary: 'disable or enable deployments of a coin',
    async run(db, args, io) {
      const coin = await requireCoin(db, args[0]);
      const on = onOff(args[1], 'catalog maintenance');
      await change(db, io.by, coin.id, { maintenance: on ? 1 : 0 }, 'catalog maintenance', { on });
      io.out(`${coin.id}: maintenance ${on ? 'on' : 'off'}`);
    },
  },
  'catalog delist': {
    usage: 'catalog delist <coin>',
    summary: 'delist a coin: no new deployments; it leaves the list once no hosted node remains',
    async run(db, args, io) {
      if (args.length !== 1) throw new UsageError('catalog delist takes one coin');
      const coin = await requireCoin(db, args[0]);
      if (coin.delisted) return io.out(`${coin.id} is already delisted`);
      await change(db, io.by, coin.id, { delisted: 1 }, 'catalog delist', {});
      io.out(`${coin.id}: delisted (${(await hostedCounts(db)).get(coin.id) ?? 0} hosted nodes keep running)`);
    },
  },
};
