import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import * as v from 'valibot';
import { cliRun } from '../support/cli';
import { makeCoinReady, writeFixtureFacts, writeLitecoindCatalog } from '../support/coin-ready';
import { haveBinary, pidsMatching, regtestChain, rpc } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { at, browserSession, liveSubscribed } from './browser';

// Production (the simulator off), as a customer sees it in Chromium: a coin whose daemon is
// not checked yet is "Coming soon" in the list, on its page and on the deploy page (no
// wizard to fill in vain); the coin whose `coins check` passed is deployed through its
// wizard and runs on its real daemon (Debian's litecoind stands in for the coin's daemon),
// whose sync the node page follows.
const dataDir = tempDataDir('nodekeep-e2e-soon-');
const { profilesFile, catalogFile } = writeLitecoindCatalog(dataDir, {
  profiles: { 'ltc-ready': {}, 'ltc-later': {} },
  base: 'playa3ull',
  coins: [
    { id: 'readyc', label: 'Ready Coin', ticker: 'RDY', daemon: 'ltc-ready' },
    { id: 'laterc', label: 'Later Coin', ticker: 'LTR', daemon: 'ltc-later' },
  ],
});
const env = {
  FLEET_SIMULATOR: 'false',
  FLEET_LOCAL_IPV4: '203.0.113.21',
  MONITOR_NODE_SECONDS: '0.5',
  MONITOR_NETWORK_SECONDS: '0.5',
  DAEMON_PROFILES_FILE: profilesFile,
  DAEMON_FACTS_DIR: writeFixtureFacts(path.join(dataDir, 'facts'), ['ltc-ready', 'ltc-later']),
};

let server: TestServer;
const session = browserSession(() => server.url);
let page: Page;

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('coming soon, and a ready coin deployed', () => {
  beforeAll(async () => {
    expect((await cliRun(['catalog', 'import', catalogFile], { DATA_DIR: dataDir, ...env })).code).toBe(0);
    server = await startTestServer(env, { dataDir });
    await makeCoinReady(server, 'readyc');
    const owner = await fundedUser(server.deps, { prefix: 'soon_' });
    await session.launch();
    page = await session.newPage();
    await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), owner.token);
  }, 180_000);
  afterEach(session.assertNoPageErrors);
  afterAll(async () => {
    await session.close();
    await stopTestServer(server);
    expect(pidsMatching(dataDir)).toEqual([]);
  }, 60_000);

  it('shows the coin not checked yet as Coming soon in the list, on its page and on its deploy page', async () => {
    await page.goto('/dashboard');
    // The list shows 20 coins at first: the two of this test are found by search.
    await page.getByPlaceholder('Search coins').fill('Coin');
    const later = page.getByRole('button', { name: 'Deploy Later Coin' });
    await later.waitFor();
    expect(await later.isDisabled()).toBe(true);
    expect(await later.getAttribute('title')).toBe('Later Coin nodes are coming soon');
    expect(await page.getByRole('link', { name: 'Deploy Ready Coin' }).count()).toBe(1);
    const flagsOf = (id: string) => page.locator(`tr[data-coin="${id}"] .flag-info`, { hasText: 'Coming soon' });
    expect(await flagsOf('laterc').count()).toBe(1);
    expect(await flagsOf('readyc').count()).toBe(0);

    await page.goto('/dashboard/view_coin?coin=laterc');
    await page.getByText('Later Coin nodes are coming soon.', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Deploy a node' }).isDisabled()).toBe(true);

    await page.goto('/dashboard/deploy?coin=laterc');
    await page
      .getByText(
        'Later Coin nodes are coming soon: the servers that run them are being prepared. Please check back later.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: "Let's start" }).count()).toBe(0);

    // On a phone the coin's page says it in full, without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard/view_coin?coin=laterc');
    const note = page.getByText('Later Coin nodes are coming soon.', { exact: true });
    await note.waitFor();
    expect(await note.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('deploys the ready coin through its wizard; its node runs on the real daemon', async () => {
    const subscribed = liveSubscribed(page);
    await page.goto('/dashboard/deploy?coin=readyc');
    await subscribed;
    await page.getByRole('button', { name: "Let's start" }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByLabel('License key', { exact: true }).fill(randomBytes(12).toString('hex').toUpperCase());
    const answer = page.waitForResponse((r) => r.url().includes('deploy.deploy_server'));
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const body = (await (await answer).json()) as [{ result?: { data: { server_id: string } } }];
    const serverId = body[0].result!.data.server_id;
    await page.getByRole('heading', { name: 'Setup completed!' }).waitFor({ timeout: 60_000 });
    await page
      .locator(`.queue-item[data-mn="${serverId}"]`)
      .getByRole('link', { name: 'Click here to continue' })
      .click({ timeout: 60_000 });
    await at(page, `/dashboard/masternode/${serverId}?tab=config`);
    const row = () =>
      server.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', serverId).executeTakeFirstOrThrow();
    expect((await row()).daemon_profile).toBe('ltc-ready');
    // Its daemon is the real one: a fresh regtest chain is "syncing" until its first block;
    // one mined on it, the monitor sees it synced and the page says Running.
    const target = async () => {
      const r = await row();
      return {
        endpoint: await server.fleet.engines.local.rpcEndpoint(serverId),
        auth: { user: r.rpc_user!, password: r.rpc_password! },
      };
    };
    // The chain it follows: another litecoind, 30 blocks ahead. Their headers first (what a
    // syncing node learns before the blocks): the page shows how far it is, as it goes.
    const peer = await regtestChain(path.join(dataDir, 'peer'), 30);
    try {
      // Ten headers, then the rest: the line follows the headers too while no block comes.
      const headers = await peer.headers();
      const syncLine = (of: number) =>
        page
          .getByRole('status')
          .filter({ hasText: new RegExp(`^Syncing 0\\.0 % — block 0 of ${of} — (estimating…|.+ left)$`) })
          .waitFor({ timeout: 60_000 });
      for (const header of headers.slice(0, 10)) await rpc(target, 'submitheader', [header], v.null());
      await page.getByRole('tab', { name: 'Overview' }).click();
      await syncLine(10);
      for (const header of headers.slice(10)) await rpc(target, 'submitheader', [header], v.null());
      await syncLine(30);
      // Then the blocks, from the peer: synced, the line is gone and the node is Running.
      await rpc(target, 'addnode', [`127.0.0.1:${peer.p2pPort}`, 'onetry'], v.null());
      await page.getByText('Running', { exact: true }).first().waitFor({ timeout: 60_000 });
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /^Syncing / })
          .count(),
      ).toBe(0);
      // Running means caught up with the headers (the last block may still be in flight).
      expect((await row()).blocks).toBeGreaterThanOrEqual(29);
      await expect.poll(async () => (await row()).blocks, { timeout: 30_000 }).toBe(30);
    } finally {
      await peer.stop();
    }
  }, 150_000);
});
