import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../src/server/cli/main';
import { launchChromium } from '../test/e2e/browser';
import { startTestServer, stopTestServer, tempDataDir } from '../test/support/server';
import { machine, writeSection } from './report';

const COINS = 500;
const RUNS = 5;

/** The shipped catalog repeated into `n` distinct coins (ids bench0…), for load. */
function bigCatalog(n: number): string {
  const real = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
  const base = real.coins.filter((c: any) => !c.delisted);
  const coins = Array.from({ length: n }, (_, i) => ({
    ...structuredClone(base[i % base.length]),
    id: `bench${i}`,
    label: `Bench ${i} ${base[i % base.length].label}`,
    maintenance: false,
  }));
  return JSON.stringify({ ...real, coins });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Time for /dashboard to show the coin list with 500 coins in Debian's Chromium: from
 * navigation to the first 20 rows on screen, and from typing a search that matches all
 * 500 to all of them rendered. The built client (dist/client) is measured.
 */
export async function benchCoinListRender() {
  const dataDir = tempDataDir();
  const file = path.join(dataDir, 'bench-catalog.json');
  fs.writeFileSync(file, bigCatalog(COINS));
  // Load the coins before the server starts, so its first market refresh covers them.
  if ((await runCli(['catalog', 'import', file], { DATA_DIR: dataDir }, { out: () => {} })) !== 0)
    throw new Error('catalog import failed');
  const s = await startTestServer({ LOG_LEVEL: 'warn' }, { dataDir });
  const browser = await launchChromium();
  try {
    for (let i = 0; i < 100; i++) {
      const body = await fetch(`${s.url}/public_api/get_coins`).then((r) => r.json());
      if (Object.keys(body.data).length >= COINS && typeof body.data.bench0?.masternode_value.value === 'number') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const first: number[] = [];
    const all: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage();
      const t0 = Date.now();
      await page.goto(`${s.url}/dashboard`);
      await page.waitForFunction(() => document.querySelectorAll('[data-coin]').length >= 20, undefined, {
        timeout: 30_000,
      });
      first.push(Date.now() - t0);
      const search = page
        .getByRole('searchbox')
        .or(page.getByPlaceholder(/search/i))
        .first();
      const t1 = Date.now();
      await search.fill('bench');
      await page.waitForFunction((n) => document.querySelectorAll('[data-coin^="bench"]').length >= n, COINS, {
        timeout: 30_000,
      });
      all.push(Date.now() - t1);
      await page.close();
    }
    writeSection(
      'coin_list_render',
      `## Coin list render, ${COINS} coins, Chromium

${new Date().toISOString().slice(0, 10)} on ${machine()}; Debian Chromium headless, built client, server on loopback. Median of ${RUNS} runs (each a fresh tab). The ${COINS} bench coins are copies of catalog coins under new ids, so they have no logo files: the page also handles their missing-logo replies.

| step | median ms | runs (ms) |
|---|---|---|
| navigate to /dashboard → first 20 rows shown (includes fetching ${COINS} coins) | ${median(first)} | ${first.join(', ')} |
| type a search matching all ${COINS} → all ${COINS} rows rendered | ${median(all)} | ${all.join(', ')} |`,
    );
    console.log(`coin list: first rows ${median(first)} ms, all ${COINS} rows after search ${median(all)} ms`);
  } finally {
    await browser.close();
    await stopTestServer(s);
  }
}
