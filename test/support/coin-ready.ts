import fs from 'node:fs';
import path from 'node:path';
import { findCoinCheck } from '../../src/server/nodes/coin-check-queries';
import { requestCoinCheck } from '../../src/server/nodes/coin-checks';
import type { TestServer } from './server';
import { waitFor } from './wait';

/**
 * Facts files for test profiles made from Debian's litecoind (catalog/daemons.json
 * "litecoind-regtest"): a fixture saying "verified", without citations. The catalog's real
 * profiles carry their source readings in catalog/daemon-facts; these only let a test run a
 * real daemon with the simulator off (DAEMON_FACTS_DIR).
 */
export function writeFixtureFacts(dir: string, profiles: string[]): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const profile of profiles)
    fs.writeFileSync(
      path.join(dir, `${profile}.json`),
      JSON.stringify({
        profile,
        repository: 'litecoin-project/litecoin',
        tag: 'v0.21.2.1',
        verified: true,
        notes: "test fixture: Debian's litecoind, the daemon these tests run",
      }),
    );
  return dir;
}

/** Runs the real `coins check` of a coin in the test server (its job) and waits for the result. */
export async function runCoinCheck(s: TestServer, coinId: string, hostName: string | null = null) {
  const id = await requestCoinCheck(s.deps.db, s.fleet.profiles, coinId, hostName);
  return waitFor(
    async () => {
      const row = await findCoinCheck(s.deps.db, id);
      return row && (row.state === 'passed' || row.state === 'failed') ? row : null;
    },
    180_000,
    `check of ${coinId} finished`,
  );
}

/** The coin is checked and offered (a test that runs a real daemon with the simulator off). */
export async function makeCoinReady(s: TestServer, coinId: string) {
  const row = await runCoinCheck(s, coinId);
  if (row.state !== 'passed') throw new Error(`coins check ${coinId} failed: ${row.reason}`);
}

/**
 * A profiles file with the shipped profiles plus test ones made from Debian's litecoind
 * ("litecoind-regtest" with each patch), and a catalog of coins copied from the shipped coin
 * `base` (its family and wizard), each on its profile. Import the catalog with `catalog import`.
 */
export function writeLitecoindCatalog(
  dir: string,
  opts: {
    profiles: Record<string, Record<string, unknown>>;
    base: string;
    coins: Array<{ id: string; daemon: string; label?: string; ticker?: string }>;
    /** Shipped coins kept beside the test's. */
    keep?: string[];
  },
): { profilesFile: string; catalogFile: string; litecoind: { program: string } } {
  const shippedProfiles = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8'));
  const litecoind = shippedProfiles.profiles['litecoind-regtest'];
  for (const [id, patch] of Object.entries(opts.profiles)) shippedProfiles.profiles[id] = { ...litecoind, ...patch };
  const profilesFile = path.join(dir, 'daemons.json');
  fs.writeFileSync(profilesFile, JSON.stringify(shippedProfiles));
  const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
  const base = shipped.coins.find((c: { id: string }) => c.id === opts.base);
  const coins = opts.coins.map((c) => ({
    ...base,
    label: `Coin ${c.id}`,
    ticker: c.id.toUpperCase(),
    ...c,
  }));
  const kept = shipped.coins.filter((c: { id: string }) => opts.keep?.includes(c.id));
  const catalogFile = path.join(dir, 'coins.json');
  fs.writeFileSync(catalogFile, JSON.stringify({ ...shipped, coins: [...coins, ...kept] }));
  return { profilesFile, catalogFile, litecoind };
}
