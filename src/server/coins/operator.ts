import type { Updateable } from 'kysely';
import type { DB } from '../db/open';
import type { CoinRecord, CoinsTable } from '../db/schema';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { campaignRefusal } from './campaign';
import { CatalogError, parseCatalog } from './catalog-file';
import { importCoins, type ImportResult } from './import';
import { columns, findCoin, listCoins, updateCoin } from './queries';

/**
 * The operator's catalog actions: one service for the CLI (`catalog …`) and the
 * console's Catalog page. Each change, its log line and the live `update_stats` (every
 * open coin list, coin page and deploy page refetches) are one transaction.
 */
export const MAX_PRICE_MICROS = 1_000_000_000; // $1,000 per day

export type CatalogFlag = 'campaign' | 'maintenance' | 'cloud';
const FLAG_ACTION: Record<CatalogFlag, string> = {
  campaign: 'catalog campaign',
  maintenance: 'catalog maintenance',
  cloud: 'catalog cloud',
};

async function change(
  db: DB,
  by: OperatorActor,
  coinId: string,
  patch: Updateable<CoinsTable>,
  action: string,
  detail: Record<string, unknown>,
  /** Throws to refuse the coin as it would be after the change (the transaction is rolled back). */
  check?: (after: CoinRecord) => void,
): Promise<CoinRecord> {
  return db.transaction().execute(async (trx) => {
    const coin = await findCoin(trx, coinId);
    if (!coin) fail('NOT_FOUND', `No coin "${coinId}".`, 'coin');
    await updateCoin(trx, coin.id, patch);
    const after = (await findCoin(trx, coin.id))!;
    check?.(after);
    await logOperatorAction(trx, by, action, { coin: coin.id, ...detail });
    await insertEvent(trx, null, 'update_stats', {});
    return after;
  });
}

function checkPrice(micros: number | undefined, what: string) {
  if (micros === undefined) return;
  if (!Number.isSafeInteger(micros) || micros < 0 || micros > MAX_PRICE_MICROS)
    fail('BAD_REQUEST', `The ${what} price must be a USD amount per day from 0 to 1000 (at most 6 decimals).`, what);
}

export type PriceChange = { dedicated?: number; cloud?: number; campaignDedicated?: number; campaignCloud?: number };

/** Daily prices in micro-dollars, regular and campaign; any of them, checked as the pair will be. */
export async function setCoinPrices(
  db: DB,
  by: OperatorActor,
  coinId: string,
  prices: PriceChange,
): Promise<CoinRecord> {
  if (Object.values(prices).every((p) => p === undefined)) fail('BAD_REQUEST', 'Give a price to change.');
  checkPrice(prices.dedicated, 'dedicated');
  checkPrice(prices.cloud, 'cloud');
  checkPrice(prices.campaignDedicated, 'campaign_dedicated');
  checkPrice(prices.campaignCloud, 'campaign_cloud');
  const patch: Updateable<CoinsTable> = {};
  if (prices.dedicated !== undefined) patch.dedicated_price = prices.dedicated;
  if (prices.cloud !== undefined) patch.cloud_price = prices.cloud;
  if (prices.campaignDedicated !== undefined) patch.campaign_dedicated_price = prices.campaignDedicated;
  if (prices.campaignCloud !== undefined) patch.campaign_cloud_price = prices.campaignCloud;
  return change(db, by, coinId, patch, 'catalog set-price', { ...prices }, (coin) => {
    const refused = campaignRefusal({
      dedicated: coin.dedicated_price,
      cloud: coin.cloud_price,
      campaignDedicated: coin.campaign_dedicated_price,
      campaignCloud: coin.campaign_cloud_price,
    });
    if (refused) fail('BAD_REQUEST', refused.message, refused.field);
  });
}

export function setCoinFlag(
  db: DB,
  by: OperatorActor,
  coinId: string,
  flag: CatalogFlag,
  on: boolean,
): Promise<CoinRecord> {
  return change(db, by, coinId, { [flag]: on ? 1 : 0 }, FLAG_ACTION[flag], { on });
}

/** No new deployments; the coin leaves the lists once no hosted node remains. Null: it was delisted already. */
export async function delistCoin(db: DB, by: OperatorActor, coinId: string): Promise<CoinRecord | null> {
  const coin = await findCoin(db, coinId);
  if (!coin) fail('NOT_FOUND', `No coin "${coinId}".`, 'coin');
  if (coin.delisted) return null;
  return change(db, by, coin.id, { delisted: 1 }, 'catalog delist', {});
}

// --- importing a catalog file

export type FieldChange = { field: string; from: string; to: string };
export type CoinChange = { id: string; kind: 'add' | 'update' | 'same'; changes: FieldChange[] };
export type ImportPreview = { valid: true; coins: CoinChange[] } | { valid: false; errors: string[] };

export const MAX_CATALOG_BYTES = 2_000_000;

const shown = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function parseText(text: string, fileName: string) {
  if (Buffer.byteLength(text) > MAX_CATALOG_BYTES)
    fail('PAYLOAD_TOO_LARGE', `A catalog file is at most ${MAX_CATALOG_BYTES / 1_000_000} MB.`, 'file');
  return parseCatalog(text, fileName);
}

/** What importing this file would change, field by field, or every validation error; changes nothing. */
export async function previewCatalogImport(db: DB, text: string, fileName = 'catalog.json'): Promise<ImportPreview> {
  let coins;
  try {
    coins = parseText(text, fileName);
  } catch (err) {
    if (err instanceof CatalogError) return { valid: false, errors: err.message.split('\n').filter(Boolean) };
    throw err;
  }
  const existing = new Map((await listCoins(db)).map((c) => [c.id, c]));
  return {
    valid: true,
    coins: coins.map((c) => {
      const row = existing.get(c.id);
      const next = columns(c, row?.position ?? 0);
      const fields = Object.keys(next).filter(
        (k) => k !== 'updated_at' && k !== 'position' && k !== 'id',
      ) as (keyof typeof next)[];
      if (!row)
        return {
          id: c.id,
          kind: 'add' as const,
          changes: fields.filter((f) => f !== 'details').map((f) => ({ field: f, from: '', to: shown(next[f]) })),
        };
      const changes = fields
        .filter((f) => shown(row[f]) !== shown(next[f]))
        .map((f) => ({
          field: f,
          from: f === 'details' ? '(changed)' : shown(row[f]),
          to: f === 'details' ? '(new details)' : shown(next[f]),
        }));
      return { id: c.id, kind: changes.length ? ('update' as const) : ('same' as const), changes };
    }),
  };
}

/** Writes every coin of the file as it says, or nothing if any coin is invalid; logs it. */
export async function applyCatalogImport(
  db: DB,
  by: OperatorActor,
  text: string,
  fileName = 'catalog.json',
): Promise<ImportResult> {
  let coins;
  try {
    coins = parseText(text, fileName);
  } catch (err) {
    if (err instanceof CatalogError)
      fail('BAD_REQUEST', `The catalog file is invalid, nothing was imported:\n${err.message}`, 'file');
    throw err;
  }
  return db.transaction().execute(async (trx) => {
    const r = await importCoins(trx, coins, 'replace');
    await logOperatorAction(trx, by, 'catalog import', { file: fileName, added: r.added, updated: r.updated });
    await insertEvent(trx, null, 'update_stats', {});
    return r;
  });
}
