import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEPOSIT_SIMULATED, EXIT_SENT } from '../../src/server/nodes/actions';
import { makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive, downloadText } from './browser';

// A customer's validators in Chromium against simulated daemons: the Staking page lists
// them with their state on the beacon chain; the node page shows the deposit step until the
// deposit is seen, then the exit, sent only once confirmed; a deleted validator's
// slashing-protection file is downloaded from the portfolio's Removed nodes. Run
// `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-validators-');
let server: TestServer;
const session = browserSession(() => server.url);
const owner = { id: 0, username: '', password: '', token: '' };
let page: Page;

beforeAll(async () => {
  server = await startTestServer(fastFleetEnv(dataDir), { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'valid_' }));
  await session.launch();
  page = await session.newPage();
  await logInLive(page, owner);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const toast = (p: Page, text: string) => p.getByRole('region', { name: 'Messages' }).getByText(text, { exact: true });

async function deployValidator(): Promise<{ mn: string; pubkey: string }> {
  const password = 'staking keystore';
  const ks = await makeKeystore(password, smallPbkdf2());
  const res = await fetch(`${server.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}` },
    body: validatorForm({ files: [['validator.json', ks.text]], password }),
  });
  const body = (await res.json()) as { success: boolean; server_id: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { mn: body.server_id, pubkey: ks.pubkey };
}

describe('validators', () => {
  it(
    'Staking lists validators with their beacon state; the deposit step, then a confirmed exit',
    { timeout: 120_000 },
    async () => {
      await page.goto('/dashboard/staking');
      await expect.poll(() => page.getByText('You are not staking yet').isVisible()).toBe(true);

      const { mn, pubkey } = await deployValidator();
      // Listed as soon as it exists; synced, it waits for its deposit.
      const row = page.locator(`tr[data-mn="${mn}"]`);
      await row.waitFor();
      await expect
        .poll(() => row.locator('[data-col="activation"]').textContent(), { timeout: 30_000 })
        .toBe('Deposit not seen yet');
      expect(await row.textContent()).toContain('Start required');
      expect(await page.getByText('You are not staking yet').count()).toBe(0);

      // The node page's deposit step: the pubkey, the amount and the network's launchpad.
      await row.getByRole('link').click();
      await page.getByRole('tab', { name: 'Configuration' }).click();
      const deposit = page.getByTestId('deposit-step');
      await deposit.waitFor();
      expect(await deposit.textContent()).toContain(pubkey);
      expect(await deposit.textContent()).toContain('32 ETH');
      expect(await deposit.getByRole('link', { name: 'launchpad.ethereum.org' }).getAttribute('href')).toBe(
        'https://launchpad.ethereum.org',
      );
      expect(await page.getByTestId('activation-status').textContent()).toContain('Deposit not seen yet');

      // The demo's deposit (a simulated chain takes no real one): the page follows the
      // beacon node to active and offers the exit.
      // Its answer is read from the call: the card says it only until the beacon node moves on
      // and the deposit step leaves the page, which may be at once.
      const simulated = page.waitForResponse((r) => r.url().includes('nodes.simulate_deposit'));
      await deposit.getByRole('button', { name: 'Simulate the deposit' }).click();
      expect(JSON.stringify(await (await simulated).json())).toContain(DEPOSIT_SIMULATED);
      const exitButton = page.getByRole('button', { name: 'Exit validator…' });
      await exitButton.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('activation-status').textContent()).toContain('Active');
      expect(await deposit.count()).toBe(0);

      // Nothing is sent without the confirmation; once confirmed, one exit.
      await exitButton.click();
      const dialog = page.getByRole('dialog', { name: 'Exit this validator?' });
      await dialog.getByRole('button', { name: 'Send the signed exit' }).click();
      await dialog.getByText('Confirm the exit: it cannot be undone.').waitFor();
      await dialog.getByLabel('I understand that the exit cannot be undone.').check();
      await dialog.getByRole('button', { name: 'Send the signed exit' }).click();
      await toast(page, EXIT_SENT).waitFor();
      await expect
        .poll(() => page.getByTestId('activation-status').textContent(), { timeout: 30_000 })
        .toMatch(/Exiting|Exited/);
      await page.goto('/dashboard/staking');
      await expect
        .poll(() => page.locator(`tr[data-mn="${mn}"] [data-col="activation"]`).textContent(), { timeout: 30_000 })
        .toMatch(/^(Exiting|Exited)$/);
    },
  );

  it(
    "a deleted validator's slashing-protection file is downloaded from Removed nodes",
    { timeout: 120_000 },
    async () => {
      const { mn, pubkey } = await deployValidator();
      await expect
        .poll(
          async () => {
            const r = await fetch(`${server.url}/api/get_masternode?masternode=${mn}`, {
              headers: { authorization: `Bearer ${owner.token}` },
            });
            return r.status === 200 ? ((await r.json()) as { data: { state: string } }).data.state : null;
          },
          { timeout: 30_000 },
        )
        .toBe('live');
      const del = await fetch(`${server.url}/api/delete_masternode`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mn, reason: 'I will deploy another node' }),
      });
      expect(del.status).toBe(200);
      await page.goto('/dashboard/portfolio#removed-nodes');
      const section = page.getByRole('region', { name: 'Removed nodes' });
      const row = section.locator(`tr[data-mn="${mn}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('I will deploy another node');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('button', { name: 'Download slashing-protection file' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`slashing-protection-${pubkey.slice(2, 14)}.json`);
      const file = JSON.parse(await downloadText(download));
      expect(file.metadata.interchange_format_version).toBe('5');
      expect(file.data[0].pubkey).toBe(pubkey);
    },
  );
});
