import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { formatBalance } from '../../src/shared/format';
import { upsertQuote } from '../../src/server/market/queries';
import { pidsMatching, waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { browserSession, fitsViewport, logInLive, screenshot } from './browser';

// The reward history and the portfolio's monthly income against a running fleet: Dash nodes
// on the simulator with fast clocks, registered on its network through its admin API (the
// simulator then pays them). Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-rewards-');
const env = fastFleetEnv(dataDir);
let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  await session.launch();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

async function dashNode(u: FreshUser): Promise<string> {
  const lines: string[] = [];
  const code = await runCli(
    ['fleet', 'create', 'dash', '--user', u.username, '--plan', 'cloud'],
    { DATA_DIR: dataDir, ...env },
    { out: (l) => lines.push(l) },
  );
  expect(code, lines.join('\n')).toBe(0);
  const mnId = /node (\S+) requested/.exec(lines.join('\n'))![1];
  await waitFor(
    async () =>
      (await server.deps.db.selectFrom('node_view').select('status').where('mn_id', '=', mnId).executeTakeFirst())
        ?.status === 'start required',
    30_000,
    'start required',
  );
  return mnId;
}
async function simAdmin(method: string, p: string) {
  const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${simPort}/admin${p}`, { method });
  expect(res.status).toBeLessThan(300);
}
const register = (mnId: string) => simAdmin('POST', `/nodes/${mnId}/register`);
const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.stat-value');
const rewardsCard = (page: Page) => page.getByRole('region', { name: 'Rewards' });
const rewardRows = (mnId: string) =>
  server.deps.db.selectFrom('node_rewards').selectAll().where('mn_id', '=', mnId).orderBy('height', 'desc').execute();

describe('rewards', () => {
  it('a portfolio of simulated nodes says plainly it earns nothing, though the simulator pays them', async () => {
    const u = await freshUser(server.deps, { prefix: 'rwsim_' });
    const mnId = await dashNode(u);
    await register(mnId);
    // The simulator's network has paid it (its daemon says so): the platform still shows no reward.
    await waitFor(
      async () =>
        (
          await server.deps.db
            .selectFrom('node_view')
            .select('status_on_network')
            .where('mn_id', '=', mnId)
            .executeTakeFirst()
        )?.status_on_network === 'ENABLED',
      30_000,
      'enabled on the simulated network',
    );

    const page = await session.newPage();
    await logInLive(page, u);
    await page.goto('/dashboard/portfolio');
    await page.locator(`tr[data-mn="${mnId}"]`).waitFor();
    await expect.poll(() => stat(page, 'Monthly income').textContent()).toBe('None (simulated)');
    await rewardsCard(page)
      .getByText('No rewards: your nodes are simulated, and simulated nodes earn none.', { exact: true })
      .waitFor();
    expect(await page.locator(`tr[data-mn="${mnId}"] td[data-col="last_reward"]`).textContent()).toBe('--');

    await page.goto(`/dashboard/masternode/${mnId}`);
    await rewardsCard(page)
      .getByText('No rewards: this node is simulated, and simulated nodes earn none.', { exact: true })
      .waitFor();
    expect(await page.locator('.stat', { hasText: 'Earnings' }).locator('.stat-value').textContent()).toBe(
      'None (simulated)',
    );
    expect(await rewardRows(mnId)).toEqual([]);
    expect(
      await server.deps.db
        .selectFrom('notifications')
        .select('kind')
        .where('user_id', '=', u.id)
        .where('kind', 'in', ['first_reward', 'reward'])
        .execute(),
    ).toEqual([]);
    await page.close();
  });

  it('shows a real node’s rewards as they come, valued at the price then, and fills the monthly income', async () => {
    const u = await freshUser(server.deps, { prefix: 'rwreal_' });
    const mnId = await dashNode(u);
    // Counted as real (its row says so) while the simulator answers for it: only real nodes earn.
    await server.deps.db.updateTable('nodes').set({ simulated: 0 }).where('mn_id', '=', mnId).execute();
    // The price the platform holds when the rewards come.
    await upsertQuote(
      server.deps.db,
      'dash',
      'test',
      { market_id: 'dash', price_usd: 25, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
      Date.now(),
    );

    const page = await session.newPage();
    await logInLive(page, u);
    await page.goto('/dashboard/portfolio');
    await page.locator(`tr[data-mn="${mnId}"]`).waitFor();
    await rewardsCard(page)
      .getByText(/^No rewards yet\./)
      .waitFor();
    expect(await stat(page, 'Monthly income').textContent()).toBe('$0.00');

    // Paid on its network: the history and the income fill in without a reload.
    await register(mnId);
    const table = rewardsCard(page).getByRole('table', { name: 'Rewards' });
    await table.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    // Its daemon taken away: no more rewards come, so the page and the table can be compared.
    await simAdmin('DELETE', `/nodes/${mnId}`);
    await waitFor(
      async () =>
        (await server.deps.db.selectFrom('node_view').select('status').where('mn_id', '=', mnId).executeTakeFirst())
          ?.status !== 'running',
      30_000,
      'the daemon gone',
    );
    const rows = await rewardRows(mnId);
    expect(rows.length).toBeGreaterThan(0);
    const newest = rows[0];
    expect(newest.price_usd).toBe(25);
    const row = table.locator(`tbody tr[data-height="${newest.height}"]`);
    await expect
      .poll(() => row.locator('td[data-col="usd"]').textContent())
      .toBe(`$${formatBalance(newest.usd_micros! / 1e6)}`);
    expect(await row.textContent()).toContain('$25.00 per DASH');
    expect(await row.getByRole('link', { name: mnId }).getAttribute('href')).toBe(`/dashboard/masternode/${mnId}`);
    // The monthly income is what the last 30 days' rewards were worth when they came.
    const sum = rows.reduce((a, r) => a + (r.usd_micros ?? 0), 0) / 1e6;
    await expect.poll(() => stat(page, 'Monthly income').textContent()).toBe(`$${formatBalance(sum)}`);
    expect(await table.locator('tbody tr').count()).toBe(rows.length);
    await screenshot(page, 'portfolio-rewards');

    // At phone width the card scrolls inside itself; the page does not.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await fitsViewport(page)).toBe(true);

    // The node's own page lists them too.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/dashboard/masternode/${mnId}`);
    await rewardsCard(page).locator(`tbody tr[data-height="${newest.height}"]`).waitFor();
    expect(await rewardsCard(page).getByRole('columnheader', { name: 'Node' }).count()).toBe(0);
    await page.close();
  });
});
