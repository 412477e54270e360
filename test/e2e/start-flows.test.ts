import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { coinNode } from '../../src/shared/english';
import { freshAddress } from '../support/addresses';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { at, browserSession, liveSubscribed } from './browser';
import { fastFleetEnv } from '../support/fast-fleet';

// Issue 24, items 1, 2 and 7 in Chromium on the simulator: each family's start flow agrees
// with its status. ZEN, 3ULL and Satori need no action and reach Running by themselves;
// Energi shows its announcement values at once, waits in "Start required" for exactly that
// announcement, and runs once it is made (on the simulator: its admin call stands for the
// owner's wallet). Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-startflows-');
const env = fastFleetEnv(dataDir);

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { username: '', password: '', token: '' };
let page: Page;

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'starter_' }));
  await session.launch();
  page = await session.newPage();
  await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), owner.token);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const address = (prefix: string, length: number) =>
  prefix + Array.from(randomBytes(length - prefix.length), (b) => BASE58[b % 58]).join('');
const button = (name: string) => page.getByRole('button', { name, exact: true });
const input = (label: string) => page.getByLabel(label, { exact: true });
const view = (title: string) => page.getByRole('region', { name: title, exact: true });
const status = () => page.getByTestId('node-status');

/** Through the wizard to its last step, the entry filled, deployed: the node's id. */
async function deployThrough(coin: string, steps: number, fill: () => Promise<void>): Promise<string> {
  const subscribed = liveSubscribed(page);
  await page.goto(`/dashboard/deploy?coin=${coin}`);
  await subscribed;
  await button("Let's start").click();
  for (let i = 1; i < steps; i++) await button('Next').click();
  await fill();
  const answer = page.waitForResponse((r) => r.url().includes('deploy.deploy_server'));
  await button('Deploy').click();
  const body = (await (await answer).json()) as [{ result?: { data: { server_id: string } }; error?: unknown }];
  expect(body[0].error).toBeUndefined();
  return body[0].result!.data.server_id;
}

/** The node page, waiting until its status badge reads `label`. */
async function statusBecomes(mnId: string, label: string) {
  if (!page.url().includes(`/dashboard/masternode/${mnId}`)) {
    await page.goto(`/dashboard/masternode/${mnId}`);
    await at(page, `/dashboard/masternode/${mnId}`);
  }
  await expect.poll(() => status().textContent(), { timeout: 30_000 }).toBe(label);
}

/**
 * Every notification the owner was given, oldest first, read where they are raised: the
 * bell's list holds only the newest 50, and simulated payments may fill it.
 */
async function messages(): Promise<string[]> {
  const rows = await server.deps.db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.user_id')
    .select('notifications.message')
    .where('users.username', '=', owner.username)
    .orderBy('notifications.id')
    .execute();
  return rows.map((r) => r.message);
}

describe('start flows agree with statuses', () => {
  it('ZEN, 3ULL and Satori need no action: each goes to Running by itself', { timeout: 150_000 }, async () => {
    const zen = await deployThrough('zen42', 4, () => input('T-address').fill(freshAddress('zen42')));
    await statusBecomes(zen, 'Running');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await view('Your Horizen node').getByText('there is nothing to run from your wallet', { exact: false }).waitFor();

    const ull = await deployThrough('playa3ull', 2, () =>
      input('License key').fill(randomBytes(12).toString('hex').toUpperCase()),
    );
    await statusBecomes(ull, 'Running');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await view('Your node').getByText('Your node is deployed and needs no action from you.', { exact: true }).waitFor();

    const satori = await deployThrough('satori', 2, async () => {
      await input('Reward address').fill(freshAddress('satori'));
      await input('Number of neurons').fill('1');
    });
    await statusBecomes(satori, 'Running');

    // Told what is true at each step: deployed and syncing, then running; never asked for a start.
    await expect.poll(messages, { timeout: 15_000 }).toEqual(
      expect.arrayContaining(
        [
          [zen, 'Horizen Secure Node'],
          [ull, 'PLAYA3ULL GAMES'],
          [satori, 'Satori Network'],
        ].flatMap(([id, label]) => [
          `Your ${coinNode(label)} ${id} is deployed and syncing.`,
          `Your ${coinNode(label)} ${id} is running.`,
        ]),
      ),
    );
    expect((await messages()).filter((m) => /needs (to be started|a new start)|deployed and running/.test(m))).toEqual(
      [],
    );
  });

  it('Energi shows its announcement values at once, then runs once announced', { timeout: 120_000 }, async () => {
    const owned = freshAddress('nrg');
    const nrg = await deployThrough('nrg', 2, () => input('Collateral address').fill(owned));
    await statusBecomes(nrg, 'Start required');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    const v = view('Start your Energi masternode');
    expect(await v.getByLabel('Owner address (holds the collateral)', { exact: true }).textContent()).toBe(owned);
    expect(await v.getByLabel('Masternode enode id', { exact: true }).textContent()).toMatch(/^[0-9a-f]{128}$/);
    await v.getByText(/^This is a simulated node: it has no public IPv4 address/).waitFor();
    expect(await v.textContent()).not.toMatch(/check back|being prepared/);
    // The one action it waits for: the owner's first start, so worded as such.
    await expect.poll(messages, { timeout: 15_000 }).toContain(`Your Energi node ${nrg} needs to be started.`);

    // The owner's wallet announces it (on the simulator, its admin call).
    const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8').trim();
    const res = await fetch(`http://127.0.0.1:${simPort}/admin/nodes/${nrg}/register`, { method: 'POST' });
    expect(res.status).toBe(200);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect.poll(() => status().textContent(), { timeout: 60_000 }).toBe('Running');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await v.getByText('Your masternode is announced and running.', { exact: true }).waitFor();
    await expect.poll(messages, { timeout: 15_000 }).toContain(`Your Energi node ${nrg} is running.`);
  });
  it("DFI shows the hosted node's defi.conf line and a complete createmasternode", { timeout: 90_000 }, async () => {
    const dfi = await deployThrough('defi', 2, () => input('Transaction ID').fill(randomBytes(32).toString('hex')));
    await page.goto(`/dashboard/masternode/${dfi}?tab=config`);
    const v = view('Create your DeFiChain masternode');
    const line = await v.getByLabel('defi.conf of your hosted node', { exact: true }).textContent();
    expect(line).toMatch(/^masternode_operator=8[1-9A-HJ-NP-Za-km-z]{33}$/);
    const operator = line!.split('=')[1];
    // No command until the owner address is typed: nothing with a placeholder is shown.
    expect(await v.getByLabel('Create the masternode from your wallet', { exact: true }).count()).toBe(0);
    const ownerField = v.getByLabel(/^Your owner address/);
    await ownerField.fill('hello');
    await v.getByText('This is not a DeFiChain address: it should start with 8 or df1.', { exact: true }).waitFor();
    const ownerAddress = address('8', 34);
    await ownerField.fill(ownerAddress);
    expect(await v.getByLabel('Create the masternode from your wallet', { exact: true }).textContent()).toBe(
      `createmasternode ${ownerAddress} ${operator}`,
    );
    expect(await v.textContent()).not.toMatch(/<[A-Za-z]+>|\{[a-z_]+\}/);
  });
});
