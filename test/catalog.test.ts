import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogError, FAMILIES, parseCatalog } from '../src/server/coins/catalog-file';
import { bundledCatalogPath, importCatalog } from '../src/server/coins/import';
import { findCoin, listCoins, updateCoin } from '../src/server/coins/queries';
import { migrateToLatest, openDatabase, type DB } from '../src/server/db/open';
import { tempDataDir } from './support/server';

const realText = fs.readFileSync('catalog/coins.json', 'utf8');
const real = JSON.parse(realText);
const dir = tempDataDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The real catalog with one coin changed by `edit`. */
function variant(edit: (coins: any[]) => void): string {
  const copy = structuredClone(real);
  edit(copy.coins);
  return JSON.stringify(copy);
}

describe('the shipped catalog', () => {
  const coins = parseCatalog(realText);

  it('holds at least 30 real coins covering every wizard family', () => {
    expect(coins.length).toBeGreaterThanOrEqual(30);
    expect(new Set(coins.map((c) => c.family))).toEqual(new Set(FAMILIES));
    for (const id of [
      'dash',
      'firo',
      'sys',
      'bitg',
      'rtm',
      'neox',
      'blocx',
      'pivx',
      'zen42',
      'zen500',
      'nrg',
      'bdx',
      'oxen',
      'playa3ull',
      'satori',
      'sin',
      'eth',
      'defi',
    ]) {
      expect(coins.map((c) => c.id)).toContain(id);
    }
    expect(coins.filter((c) => c.validator_evm).length).toBeGreaterThanOrEqual(2);
  });

  it('has two delisted coins and one in maintenance in the demo data', () => {
    expect(coins.filter((c) => c.delisted).map((c) => c.id)).toHaveLength(2);
    expect(coins.filter((c) => c.maintenance).map((c) => c.id)).toHaveLength(1);
  });

  it('keeps prices exact in micro-dollars and names a source for every coin', () => {
    const dash = coins.find((c) => c.id === 'dash')!;
    expect(dash.dedicated_price).toBe(130_000);
    expect(coins.find((c) => c.id === 'firo')!.cloud_price).toBe(63_000);
    for (const c of coins) expect(c.details.sources.length).toBeGreaterThan(0);
  });
});

describe('bad catalog files are refused with the coin and field named', () => {
  it.each([
    ['missing field', (c: any[]) => delete c[0].ticker, /coin dash\.ticker/],
    [
      'wrong type',
      (c: any[]) => (c[1].collateral = 1000),
      /coin firo\.collateral: collateral must be a decimal string/,
    ],
    [
      'float price',
      (c: any[]) => (c[2].dedicated_price = '0.1234567'),
      /coin sys\.dedicated_price: .*at most 6 decimals/,
    ],
    ['unknown family', (c: any[]) => (c[0].family = 'pos'), /coin dash\.family: must be one of/],
    ['bad id', (c: any[]) => (c[0].id = 'Dash Coin'), /coin Dash Coin\.id: must be a lowercase slug/],
    ['duplicate id', (c: any[]) => (c[1].id = 'dash'), /coin dash\.id: appears twice/],
    ['unknown field', (c: any[]) => (c[0].colour = 'blue'), /coin dash/],
    [
      'node share above 1',
      (c: any[]) => (c[0].reward.node_share = '1.5'),
      /coin dash\.reward\.node_share: must be between 0 and 1/,
    ],
    [
      'evm flag off family',
      (c: any[]) => (c[0].front_options.validator_evm = true),
      /coin dash\.front_options\.validator_evm/,
    ],
    ['bad link', (c: any[]) => (c[0].links[0].value = 'javascript:alert(1)'), /coin dash\.links\.0\.value/],
  ])('%s', (_name, edit, message) => {
    expect(() => parseCatalog(variant(edit))).toThrow(CatalogError);
    expect(() => parseCatalog(variant(edit))).toThrow(message);
  });

  it('not JSON, or not a catalog', () => {
    expect(() => parseCatalog('{"version": 1,', 'x.json')).toThrow(/x\.json: not valid JSON/);
    expect(() => parseCatalog('{"version": 2, "updated": "", "coins": []}', 'x.json')).toThrow(
      /x\.json\.version: must be 1/,
    );
  });
});

describe('importing', () => {
  let db: DB;
  beforeAll(async () => {
    db = openDatabase(path.join(dir, 'c.sqlite'));
    await migrateToLatest(db);
  });
  afterAll(() => db.destroy());

  it('seeds every coin once and keeps the operator’s changes on the next seed', async () => {
    const first = await importCatalog(db, bundledCatalogPath(), 'seed');
    expect(first.added).toHaveLength(real.coins.length);
    await updateCoin(db, 'dash', { dedicated_price: 200_000 });
    const second = await importCatalog(db, bundledCatalogPath(), 'seed');
    expect(second.added).toEqual([]);
    expect((await findCoin(db, 'dash'))!.dedicated_price).toBe(200_000);
    expect((await listCoins(db)).map((c) => c.id)).toEqual(real.coins.map((c: any) => c.id));
  });

  it('replaces from a file, and an invalid file changes nothing', async () => {
    const file = path.join(dir, 'new.json');
    fs.writeFileSync(
      file,
      variant((c) => (c[0].dedicated_price = '0.2')),
    );
    const r = await importCatalog(db, file, 'replace');
    expect(r.updated).toContain('dash');
    expect((await findCoin(db, 'dash'))!.dedicated_price).toBe(200_000);

    const before = JSON.stringify(await listCoins(db));
    fs.writeFileSync(
      file,
      variant((c) => {
        c[0].dedicated_price = '0.5';
        delete c[5].label;
      }),
    );
    await expect(importCatalog(db, file, 'replace')).rejects.toThrow(/label/);
    expect(JSON.stringify(await listCoins(db))).toBe(before);
  });
});
