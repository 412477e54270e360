import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { formatBalance } from '../../src/shared/format';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { at, browserSession, fitsViewport, screenshot, logInLive } from './browser';
import { fastFleetEnv } from '../support/fast-fleet';

// The portfolio and node pages against a running fleet: simulated daemons with fast
// clocks (sync in a second, Dash blocks every half second, checks every half second).
// Run `npm run build:client` first.

const dataDir = tempDataDir('nodekeep-e2e-nodes-');
const fleetEnv = fastFleetEnv(dataDir);
const env = fleetEnv;

let server: TestServer;
const session = browserSession(() => server.url);
const { newPage } = session;

const owner = { username: '', password: '', token: '' };
const other = { username: '', password: '', token: '' };

async function api<T>(p: string, token: string): Promise<T> {
  const res = await fetch(server.url + p, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, p).toBe(200);
  return (await res.json()) as T;
}

async function createNode(coin: string, username: string): Promise<string> {
  const lines: string[] = [];
  const code = await runCli(
    ['fleet', 'create', coin, '--user', username, '--plan', 'cloud'],
    { DATA_DIR: dataDir, ...env },
    { out: (l) => lines.push(l) },
  );
  expect(code, lines.join('\n')).toBe(0);
  return /node (\S+) requested/.exec(lines.join('\n'))![1];
}

async function registerOnNetwork(mnId: string) {
  const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${simPort}/admin/nodes/${mnId}/register`, { method: 'POST' });
  expect(res.status).toBeLessThan(300);
}

/** The value of one of the page's stat cards ("Nodes", "Monthly expenses"). */
const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.stat-value');
const table = (page: Page) => page.getByRole('table', { name: 'Masternodes' });
const nodeRowIds = (t: Locator) =>
  t.locator('tbody tr[data-mn]:not([data-queue])').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-mn')));
/** A row of the node page's tables by its label ("IP" and not "IPv6"). */
const detailRow = (page: Page, label: string) => page.getByRole('row', { name: new RegExp(`^${label}\\s`) });

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  // Registered and logged in, not verified (as the pages under test first meet them).
  Object.assign(owner, await freshUser(server.deps, { prefix: 'owner_', verified: false }));
  Object.assign(other, await freshUser(server.deps, { prefix: 'other_', verified: false }));
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

let page: Page;
let dashId = '';
let pivxId = '';

describe('portfolio and node pages', () => {
  it('shows the empty portfolio with a way to deploy', async () => {
    page = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await logInLive(page, owner);
    await page.getByRole('link', { name: 'Portfolio', exact: true }).click();
    await at(page, '/dashboard/portfolio');
    await page.getByRole('heading', { name: "You don't have any masternodes" }).waitFor();
    expect(await page.getByRole('link', { name: 'Deploy now' }).getAttribute('href')).toBe('/dashboard');
    expect(await stat(page, 'Nodes').textContent()).toBe('0');
    expect(await stat(page, 'Monthly expenses').textContent()).toBe('$0.00');
  });

  it('lists new nodes without a reload, with their totals, search and export', { timeout: 60_000 }, async () => {
    dashId = await createNode('dash', owner.username);
    pivxId = await createNode('pivx', owner.username);

    // The fleet's live events bring them in; deploying ones show in the queue first.
    const t = table(page);
    await expect.poll(async () => (await nodeRowIds(t)).sort(), { timeout: 30_000 }).toEqual([dashId, pivxId].sort());
    expect(await stat(page, 'Nodes').textContent()).toBe('2');

    // Monthly expenses: 30 × the nodes' daily prices.
    const list = await api<{ masternodes: { mn_id: string }[]; monthly_cost: number }>(
      '/api/get_masternodes',
      owner.token,
    );
    let daily = 0;
    for (const n of list.masternodes)
      daily += (
        await api<{ data: { hosting_price: number } }>(`/api/get_masternode?masternode=${n.mn_id}`, owner.token)
      ).data.hosting_price;
    expect(list.monthly_cost).toBeCloseTo(30 * daily, 9);
    expect(await stat(page, 'Monthly expenses').textContent()).toBe(`$${formatBalance(30 * daily)}`);

    // Rows: status, created date, links to the node page and the delete shortcut.
    const dashRow = t.locator(`tr[data-mn="${dashId}"]`);
    expect(await dashRow.getByRole('link', { name: `Open ${dashId}` }).getAttribute('href')).toBe(
      `/dashboard/masternode/${dashId}`,
    );
    expect(await dashRow.getByRole('link', { name: `Delete ${dashId}` }).getAttribute('href')).toBe(
      `/dashboard/masternode/${dashId}?tab=delete`,
    );
    expect(await dashRow.locator('td[data-col="created"]').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await dashRow.locator('td[data-col="last_reward"]').textContent()).toBe('--');
    await screenshot(page, 'portfolio');

    // Search by currency and by id.
    const search = page.getByRole('searchbox', { name: 'Search nodes' });
    await search.fill('pivx');
    await expect.poll(() => nodeRowIds(t)).toEqual([pivxId]);
    await search.fill(dashId);
    await expect.poll(() => nodeRowIds(t)).toEqual([dashId]);
    await search.fill('zzz-nothing');
    await page.getByText('No nodes match “zzz-nothing”.').waitFor();
    await search.fill('');
    await expect.poll(async () => (await nodeRowIds(t)).length).toBe(2);

    // Export: the DIP003 dash node is left out, the pivx node is in a copyable block.
    await page.getByRole('button', { name: 'Export view' }).click();
    const exportView = page.getByRole('region', { name: 'Export Masternode Configuration File' });
    await exportView.waitFor();
    const pivxBlock = exportView.locator('[data-currency="pivx"]');
    expect(await pivxBlock.getByLabel('PIVX configuration', { exact: true }).textContent()).toContain(pivxId);
    expect(await exportView.locator('[data-currency="dash"]').count()).toBe(0);
    expect(await exportView.textContent()).not.toContain(dashId);
    await pivxBlock.getByRole('button', { name: 'Copy PIVX configuration' }).click();
    await pivxBlock.getByRole('button', { name: 'Copy PIVX configuration' }).filter({ hasText: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(pivxId);
    await screenshot(page, 'portfolio-export');
    await search.fill('piv');
    await pivxBlock.waitFor();
    await search.fill('zzz-nothing');
    await exportView.getByText('No configuration matches your search.').waitFor();
    await search.fill('');
    await page.getByRole('button', { name: 'List view' }).click();
    await t.waitFor();
  });

  it('shows the node page with wallet details and follows its status live', { timeout: 120_000 }, async () => {
    await table(page)
      .getByRole('link', { name: `Open ${dashId}` })
      .click();
    await at(page, `/dashboard/masternode/${dashId}`);
    await page.getByRole('heading', { level: 1, name: dashId }).waitFor();
    await page.getByText('DASH Masternode', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Deploy a node' }).getAttribute('href')).toBe(
      '/dashboard/deploy?coin=dash',
    );

    // Synced on the simulator: start required (warning), waiting for its ProTx.
    const status = page.getByTestId('node-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Start required');
    expect(await status.getAttribute('class')).toContain('status-warning');
    await expect
      .poll(() => page.getByTestId('network-status').textContent(), { timeout: 15_000 })
      .toBe('WAITING_FOR_PROTX');
    expect(await detailRow(page, 'Version').textContent()).toContain('Simulator');
    expect(await detailRow(page, 'ID').textContent()).toContain(dashId);
    // A simulated node shows no address as if it had one.
    // Its protx lines name the server it was placed on; the row says why.
    expect(await detailRow(page, 'IP').textContent()).toContain(
      'None: a simulated node has no address on the network. Where a line to copy needs one, it holds the address of the server the node was placed on.',
    );
    expect(await detailRow(page, 'Plan').textContent()).toContain('Cloud');
    expect(await detailRow(page, 'Cost').textContent()).toMatch(/\$\d+\.\d{3} per day/);
    expect(
      await page
        .locator('.stat', { has: page.getByText('Earnings', { exact: true }) })
        .locator('.stat-value')
        .textContent(),
    ).toBe('None (simulated)');
    await page.getByRole('heading', { name: 'Important notes' }).waitFor();
    await page.getByText(/charged daily at 00:00 UTC/).waitFor();
    await screenshot(page, 'node-overview');

    // Registered on its network, the page follows without a reload.
    await page.evaluate(() => ((window as unknown as { stayedLoaded: boolean }).stayedLoaded = true));
    await registerOnNetwork(dashId);
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('Running');
    expect(await status.getAttribute('class')).toContain('status-green');
    await expect.poll(() => page.getByTestId('network-status').textContent(), { timeout: 15_000 }).toBe('ENABLED');
    expect(await page.evaluate(() => (window as unknown as { stayedLoaded?: boolean }).stayedLoaded)).toBe(true);
    // No spinner replaced the page while it refetched.
    expect(await page.getByRole('status').filter({ hasText: 'Loading node…' }).count()).toBe(0);
  });

  it('switches tabs by query and opens the delete dialog', async () => {
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await at(page, `/dashboard/masternode/${dashId}?tab=config`);
    // A DIP003 coin's view (the start form, its congratulations or "Attention!"; node-page.test.ts has the flow).
    await page.getByRole('region', { name: 'Start your masternode' }).waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await at(page, `/dashboard/masternode/${dashId}`);

    await page.goto(`/dashboard/masternode/${dashId}?tab=proposals`);
    await page.getByRole('heading', { name: 'Proposals' }).waitFor();

    // The portfolio's delete shortcut and the query open the dialog.
    await page.goto(`/dashboard/masternode/${dashId}?tab=delete`);
    const dialog = page.getByRole('dialog', { name: 'Delete masternode' });
    await dialog.waitFor();
    await dialog.getByText(/cannot be undone/).waitFor();
    // No reason yet: the button says it is unavailable.
    expect(await dialog.getByRole('button', { name: 'Delete node' }).getAttribute('aria-disabled')).toBe('true');
    await dialog.getByLabel('Reason').selectOption({ index: 1 });
    expect(await dialog.getByRole('button', { name: 'Delete node' }).getAttribute('aria-disabled')).toBeNull();
    await screenshot(page, 'node-delete-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await at(page, `/dashboard/masternode/${dashId}`);
    expect(await dialog.count()).toBe(0);
    // The trash button opens it too.
    await page.getByRole('button', { name: 'Delete node' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
  });

  it('fits a 390 px wide screen', async () => {
    const small = await newPage(390);
    await logInLive(small, owner);
    await small.goto('/dashboard/portfolio');
    await table(small).waitFor();
    expect(await fitsViewport(small)).toBe(true);
    await screenshot(small, 'portfolio-390');
    await small.goto(`/dashboard/masternode/${dashId}`);
    await small.getByRole('table', { name: 'Wallet details' }).waitFor();
    expect(await fitsViewport(small)).toBe(true);
    await screenshot(small, 'node-overview-390');
    await small.context().close();
  });

  it("sends another user's node to /dashboard", async () => {
    const intruder = await newPage();
    await logInLive(intruder, other);
    await intruder.goto(`/dashboard/masternode/${dashId}`);
    await at(intruder, '/dashboard');
    await intruder.goto('/dashboard/portfolio');
    await intruder.getByRole('heading', { name: "You don't have any masternodes" }).waitFor();
    await intruder.context().close();
    await page.context().close();
  });
});
