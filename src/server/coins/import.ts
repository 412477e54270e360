import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DB } from '../db/open';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { inExecutable, unpackedDir } from '../runtime/executable';
import { parseCatalog, type CatalogCoin } from './catalog-file';
import { findCoin, insertCoinIfNew, listCoins, maxPosition, upsertCoin } from './queries';

/** A file of the catalog shipped with the platform; found from the source tree, the bundle and the executable. */
export function bundledCatalogPath(file = 'coins.json'): string {
  if (inExecutable) return path.join(unpackedDir(), 'catalog', file);
  const candidates = [
    path.resolve('catalog', file),
    fileURLToPath(new URL(`../../catalog/${file}`, import.meta.url)),
    fileURLToPath(new URL(`../../../catalog/${file}`, import.meta.url)),
  ];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`catalog/${file} not found (looked in ${candidates.join(', ')})`);
  return found;
}

export type ImportResult = { added: string[]; updated: string[]; kept: string[] };

/**
 * Imports a catalog file in one transaction. `replace`: every coin in the file is
 * written as the file says (the operator's `catalog import`). `seed`: only coins the
 * database lacks are added, so the operator's CLI changes survive a restart.
 */
export async function importCatalog(db: DB, file: string, mode: 'replace' | 'seed'): Promise<ImportResult> {
  const coins = parseCatalog(fs.readFileSync(file, 'utf8'), path.basename(file));
  return db.transaction().execute((trx) => importCoins(trx, coins, mode));
}

/** `importCatalog` of checked coins, in the caller's transaction (the operator's import logs in it). */
export async function importCoins(
  trx: Kysely<Database>,
  coins: CatalogCoin[],
  mode: 'replace' | 'seed',
): Promise<ImportResult> {
  const existing = new Set((await listCoins(trx)).map((r) => r.id));
  const result: ImportResult = { added: [], updated: [], kept: [] };
  let next = (await maxPosition(trx)) + 1;
  for (const c of coins) {
    if (!existing.has(c.id)) {
      await insertCoinIfNew(trx, c, next++);
      result.added.push(c.id);
    } else if (mode === 'replace') {
      await upsertCoin(trx, c, (await findCoin(trx, c.id))!.position);
      result.updated.push(c.id);
    } else result.kept.push(c.id);
  }
  return result;
}
