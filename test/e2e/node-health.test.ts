import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';
import { fastFleetEnv } from '../support/fast-fleet';

// The node page's IP:port with its copy button, the 30-day uptime chart, the daemon's
// log (secrets masked by the server), explorer links and the Restart button, in Chromium
// at 1280 px and 390 px against a fleet of simulated daemons. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-nodehealth-');
const env = fastFleetEnv(dataDir);

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { id: 0, username: '', password: '', token: '' };

type Health = {
  state: string;
  status: string;
  uptime: { checks: number; up: number }[];
  events: { kind: string }[];
};

async function nodeData(mn: string): Promise<Health> {
  const res = await fetch(`${server.url}/api/get_masternode?masternode=${mn}`, {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Health }).data;
}

async function createNode(coin: string): Promise<string> {
  const lines: string[] = [];
  const code = await runCli(
    ['fleet', 'create', coin, '--user', owner.username, '--plan', 'cloud'],
    { DATA_DIR: dataDir, ...env },
    { out: (l) => lines.push(l) },
  );
  expect(code, lines.join('\n')).toBe(0);
  return /node (\S+) requested/.exec(lines.join('\n'))![1];
}

/** No sideways scrolling: the page is no wider than the window. */
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth);

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).getByText(text, { exact: true });

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'nodehealth_' }));
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('node page: address, uptime, log, explorer, restart', () => {
  it('shows them, copies the address, restarts once after a confirmation', { timeout: 120_000 }, async () => {
    const mn = await createNode('pivx');
    // Counted from the daemon's first answer on: a few checks in.
    await expect
      .poll(async () => (await nodeData(mn)).uptime.reduce((s, d) => s + d.up, 0), { timeout: 60_000 })
      .toBeGreaterThan(2);
    // As a node on a real daemon shows: a public address and its collateral on the coin's chain.
    const txid = 'e5'.repeat(32);
    const db = server.deps.db;
    const row = await db.selectFrom('nodes').select('id').where('mn_id', '=', mn).executeTakeFirstOrThrow();
    await db.updateTable('nodes').set({ simulated: 0, entry: txid }).where('id', '=', row.id).execute();
    await db
      .updateTable('placements')
      .set({ server_ip: '203.0.113.7', p2p_port: 51472 })
      .where('node_id', '=', row.id)
      .execute();

    for (const width of [1280, 390]) {
      const page = await session.newPage(width);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await logInLive(page, owner);
      await page.goto(`/dashboard/masternode/${mn}`);

      const address = page.getByRole('row', { name: /IP:port/ });
      await address.getByText('203.0.113.7:51472', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Copy IP and port' }).click();
      await page.getByRole('button', { name: 'Copy IP and port' }).getByText('Copied!').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('203.0.113.7:51472');

      const chart = page.getByRole('img', { name: 'Uptime per day over the last 30 days' });
      await chart.waitFor();
      expect(await chart.locator('rect').count()).toBe(30);
      await page
        .getByText(/^\d+(\.\d)? %$/)
        .first()
        .waitFor();

      const log = page.getByRole('region', { name: /Daemon log/ }).getByLabel('Daemon log');
      await log.getByText(/Simulated pivx daemon started/).waitFor();
      await expect
        .poll(async () => (await log.textContent()) ?? '')
        .toMatch(/UpdateTip: new best=[0-9a-f]{64} height=\d+/);

      const link = page.getByRole('link', { name: txid });
      expect(await link.getAttribute('href')).toBe(`https://chainz.cryptoid.info/pivx/tx.dws?${txid}.htm`);
      expect(await link.getAttribute('target')).toBe('_blank');

      expect(await noSidewaysScroll(page)).toBe(true);
      await screenshot(page, `node-health-${width}`);
      await page.context().close();
    }

    // Restart: a confirmation first; Cancel changes nothing.
    const page = await session.newPage();
    await logInLive(page, owner);
    await page.goto(`/dashboard/masternode/${mn}`);
    await page.getByRole('button', { name: 'Restart node' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restart this node?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await nodeData(mn)).events).toEqual([]);

    await page.getByRole('button', { name: 'Restart node' }).click();
    await dialog.getByRole('button', { name: 'Restart', exact: true }).click();
    await toast(page, 'The node is being restarted.').waitFor();
    const events = page.getByRole('list', { name: 'Node events' });
    await events.getByText('Restart asked for').waitFor();
    // The control loop restarts it; the page follows live.
    await events.getByText('Daemon restarted').waitFor({ timeout: 30_000 });
    await page.getByText(/Restarted recently: you can restart it again from/).waitFor();
    expect(await page.getByRole('button', { name: 'Restart node' }).isDisabled()).toBe(true);
    // A simulated daemon keeps its chain across a restart, as a real one keeps its data.
    await expect.poll(async () => (await nodeData(mn)).status, { timeout: 30_000 }).not.toBe('error');
    await page.context().close();
  });
});
