import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { freshUser, type FreshUser } from '../support/users';
import { Authenticator, browserSession, consoleNav, logInWithCode, screenshot } from './browser';

// The console's Upgrades page in Chromium against the real server and fleet (simulated
// Dash nodes): the operator upgrades a coin's daemon and follows it to the end; a
// version that does not start is rolled back and the page says why. Built client: run
// `npm run build` first.

const dataDir = tempDataDir('nodekeep-upgrades-e2e-');
let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let owner: FreshUser;

beforeAll(async () => {
  server = await startTestServer(
    { ...fastFleetEnv(dataDir), ROLLOUT_TICK_SECONDS: '0.2', ROLLOUT_HEALTH_SECONDS: '3' },
    { dataDir },
  );
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'upop', tfa: true });
  owner = await freshUser(server.deps, { prefix: 'upown' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
  for (let i = 0; i < 3; i++)
    await requestNode(
      server.deps.db,
      { profiles: server.deps.fleet.profiles, log: server.deps.log, simulator: true },
      { userId: owner.id, coinId: 'dash', plan: 'dedicated' },
    );
  await server.deps.fleet.reconcile();
  await waitFor(
    async () =>
      (
        await server.deps.db
          .selectFrom('node_view')
          .select('id')
          .where('state', '=', 'live')
          .where('user_id', '=', owner.id)
          .execute()
      ).length === 3,
    30_000,
    'three live nodes',
  );
}, 60_000);
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('console upgrades', () => {
  it('upgrades a coin canary first and shows it done; a version that does not start is rolled back with the reason', async () => {
    const page = await session.newPage();
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    await page.goto('/console');
    await consoleNav(page, 'Upgrades');
    await page.getByRole('heading', { name: "Upgrade a coin's daemon" }).waitFor();
    await page.getByLabel('Coin', { exact: true }).selectOption('dash');
    await page.getByLabel('New version').fill('22.2.0');
    await page.getByLabel('Batch size').fill('2');
    // Many nodes change: asked first, naming how many and which version; Cancel starts nothing.
    const ask = page.getByRole('dialog', { name: 'Start this upgrade?' });
    await page.getByRole('button', { name: 'Start upgrade' }).click();
    expect(await ask.getByTestId('confirm-effect').innerText()).toMatch(
      /^Upgrade the 3 live nodes of Dash from the simulator to 22\.2\.0: one first as the canary, then batches of 2,/,
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await server.deps.db.selectFrom('daemon_rollouts').selectAll().execute()).toEqual([]);
    await page.getByRole('button', { name: 'Start upgrade' }).click();
    await ask.getByRole('button', { name: 'Start upgrade' }).click();
    await page.getByText('Upgrade #1 started: 3 node(s), the first alone as the canary.').waitFor();
    const row = page.getByRole('row', { name: /simulated → 22\.2\.0/ });
    await row.getByText('done').waitFor({ timeout: 30_000 });
    await row.getByText('3/3 upgraded').waitFor();
    await screenshot(page, 'console-upgrades-done');

    // Bad input: refused with the reason, nothing started.
    await page.getByLabel('New version').fill('22 beta');
    await page.getByRole('button', { name: 'Start upgrade' }).click();
    await page
      .getByRole('alert')
      .getByText(/must be 1-40 letters/)
      .waitFor();

    await page.getByLabel('New version').fill('23.0.0-broken');
    await page.getByRole('button', { name: 'Start upgrade' }).click();
    await ask.getByRole('button', { name: 'Start upgrade' }).click();
    const broken = page.getByRole('row', { name: /22\.2\.0 → 23\.0\.0-broken/ });
    await broken.getByText('stopped (rolled back)').waitFor({ timeout: 30_000 });
    await broken.getByText(/Batch the canary failed on node/).waitFor();
    await broken.getByText(/0\/3 upgraded, 1 failed/).waitFor();
    // Each action is in the log.
    await consoleNav(page, 'Log');
    await page.getByRole('cell', { name: 'fleet upgrade', exact: true }).first().waitFor();
    await page.getByRole('cell', { name: 'fleet upgrade halted', exact: true }).waitFor();
    await page.context().close();
  });
});
