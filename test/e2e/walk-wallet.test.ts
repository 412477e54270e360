import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive } from './browser';
import { expectNoLeftover, simAdmin, txid, walker } from './walk';

// The walk, part 1 (issue 24, "Done when"), on the demo catalog with the simulator on: a
// new customer deploys one node of each family whose start is a step in their own wallet
// (DIP003, smartnode, classic, SIN burn, Beldex/Oxen, DFI) through the wizard's pages, reads
// each node page, and brings each to Running once the wallet step is done (on the
// simulator: its admin register call stands for the owner's wallet). No page shows a
// placeholder, and no simulated node shows a reward. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-walk-wallet-');
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

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const address = (prefix: string, length: number) =>
  prefix + Array.from(randomBytes(length - prefix.length), (b) => BASE58[b % 58]).join('');

describe('the walk: families started from the owner’s wallet', () => {
  it(
    'DIP003, smartnode, classic, SIN burn, Beldex and DFI: deployed through the wizard, each to Running',
    { timeout: 240_000 },
    async () => {
      const w = walker(page);
      const deployed: Array<[coin: string, mnId: string]> = [];
      const txidAt = (step: number) => ({ [step]: () => w.input('Transaction ID').fill(txid()) });

      deployed.push(['dash', (await w.deployThrough('dash', txidAt(4), { steps: 4 })).server_id]);
      deployed.push(['rtm', (await w.deployThrough('rtm', txidAt(4), { steps: 4 })).server_id]);
      deployed.push(['pivx', (await w.deployThrough('pivx', txidAt(2), { steps: 2 })).server_id]);
      const sin = await w.deployThrough(
        'sin',
        {
          // The demo's help under the field gives a burn the simulated chain knows.
          7: async () =>
            w
              .input('Burn transaction ID')
              .fill(
                (await page
                  .locator('.field:has(> label:text-is("Burn transaction ID")) .field-hint code')
                  .textContent())!,
              ),
          9: () => w.input('Transaction ID').fill(txid()),
        },
        { steps: 9, advance: { 7: () => w.button('Check burn').click() } },
      );
      deployed.push(['sin', sin.server_id]);
      const bdx = await w.deployThrough(
        'bdx',
        { 2: () => w.input('Wallet address').fill(address('b', 95)) },
        { steps: 2 },
      );
      deployed.push(['bdx', bdx.server_id]);
      deployed.push(['defi', (await w.deployThrough('defi', txidAt(2), { steps: 2 })).server_id]);

      for (const [coin, mnId] of deployed) {
        // Each waits for the one step in the owner's wallet, and its page says what it is.
        await w.nodePage(mnId, 'Start required', coin);
        await simAdmin(dataDir, 'POST', `/nodes/${mnId}/register`);
        await w.nodePage(mnId, 'Running', coin);
      }

      await page.goto('/dashboard/portfolio');
      for (const [, mnId] of deployed) await page.locator(`tr[data-mn="${mnId}"]`).waitFor();
      await expectNoLeftover(page, 'portfolio');
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoLeftover(page, 'dashboard');
    },
  );
});
