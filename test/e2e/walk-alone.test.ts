import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeKeystore, smallPbkdf2 } from '../deploy/support';
import { freshAddress } from '../support/addresses';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive } from './browser';
import { expectNoLeftover, simAdmin, walker } from './walk';

// The walk, part 2 (issue 24, "Done when"), on the demo catalog with the simulator on: a
// new customer deploys ZEN, 3ULL and Satori (which run by themselves), Energi (started by
// its announcement: the simulator's admin register stands for the owner's wallet) and an
// ETH and a GNO validator (whose start is a deposit made outside the platform: the walk
// ends on the page that shows exactly that step) through the wizard's pages. No page shows
// a placeholder, and no simulated node shows a reward. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-walk-alone-');
let server: TestServer;
const session = browserSession(() => server.url);
let page: Page;

beforeAll(async () => {
  server = await startTestServer(fastFleetEnv(dataDir), { dataDir });
  const owner = await fundedUser(server.deps, { prefix: 'walker_' });
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

describe('the walk: families that run by themselves, Energi and validators', () => {
  it('ZEN, 3ULL, Satori and Energi: deployed through the wizard, each to Running', { timeout: 180_000 }, async () => {
    const w = walker(page);
    const alone: Array<[coin: string, mnId: string]> = [];
    const tAddress = freshAddress('zen42');
    const zen = await w.deployThrough(
      'zen42',
      {
        // The guide's commands for the customer's new t-address: a field, then the command with it.
        3: async () => {
          await w.input('Your new t-address').fill(tAddress);
          await page.getByText(`zen-cli z_getbalance ${tAddress}`, { exact: true }).waitFor();
        },
        4: () => w.input('T-address').fill(tAddress),
      },
      { steps: 4 },
    );
    alone.push(['zen42', zen.server_id]);
    const ull = await w.deployThrough(
      'playa3ull',
      { 2: () => w.input('License key').fill(randomBytes(12).toString('hex').toUpperCase()) },
      { steps: 2 },
    );
    alone.push(['playa3ull', ull.server_id]);
    const satori = await w.deployThrough(
      'satori',
      {
        2: async () => {
          await w.input('Reward address').fill(freshAddress('satori'));
          await w.input('Number of neurons').fill('1');
        },
      },
      { steps: 2 },
    );
    alone.push(['satori', satori.server_id]);
    const nrg = await w.deployThrough(
      'nrg',
      { 2: () => w.input('Collateral address').fill(freshAddress('nrg')) },
      { steps: 2 },
    );

    for (const [coin, mnId] of alone) await w.nodePage(mnId, 'Running', coin);

    await w.nodePage(nrg.server_id, 'Start required', 'nrg');
    await page
      .getByRole('region', { name: 'Start your Energi masternode' })
      .getByLabel('Masternode enode id', { exact: true })
      .waitFor();
    await simAdmin(dataDir, 'POST', `/nodes/${nrg.server_id}/register`);
    await w.nodePage(nrg.server_id, 'Running', 'nrg');
  });

  it(
    'ETH and GNO validators: deployed through the wizard, each to its deposit step',
    { timeout: 180_000 },
    async () => {
      const w = walker(page);
      for (const [coin, amount] of [
        ['eth', '32 ETH'],
        ['gno', '1 GNO'],
      ] as const) {
        const password = `${coin} keystore password`;
        const ks = await makeKeystore(password, smallPbkdf2());
        const { server_id } = await w.deployThrough(
          coin,
          {
            4: async () => {
              await w.input('Keystore files').setInputFiles([
                {
                  name: 'keystore-m_12381_3600_0_0_0.json',
                  mimeType: 'application/json',
                  buffer: Buffer.from(ks.text),
                },
              ]);
              await w.input('Keystore password').fill(password);
              await w.input('Fee recipient').fill(`0x${randomBytes(20).toString('hex')}`);
            },
          },
          { steps: 5, deployStep: 4 },
        );
        // Synced, it waits for the deposit the owner makes on the network's launchpad: the page shows that step.
        await w.nodePage(server_id, 'Start required', coin);
        const deposit = page.getByTestId('deposit-step');
        expect(await deposit.textContent()).toContain(ks.pubkey);
        expect(await deposit.textContent()).toContain(amount);
        expect(await page.getByTestId('activation-status').textContent()).toContain('Deposit not seen yet');
        await expectNoLeftover(page, `${coin}: deposit step`);
      }
      await page.goto('/dashboard/staking');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoLeftover(page, 'staking');
      await page.goto('/dashboard/portfolio');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoLeftover(page, 'portfolio');
    },
  );
});
