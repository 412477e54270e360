import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { startFakeDocker } from '../support/fake-docker';
import { startPodman, type Podman } from '../support/podman';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import {
  at,
  Authenticator,
  browserSession,
  consoleNav,
  liveSubscribed,
  logInLive,
  logInWithCode,
  screenshot,
} from './browser';

// The console's Fleet and Catalog pages in Chromium against the real server (built client
// in dist/client: run `npm run build` first): a host added (a Docker API on loopback, the
// one plain tcp:// the rule allows) and drained; a coin put in maintenance, seen at once
// on a customer's deploy page in another browser context; a price edited; all in the log.

const MAINTENANCE_NOTICE =
  "Deployments of this project's nodes are temporarily disabled due to maintenance. Please check back later.";

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;
let docker: Awaited<ReturnType<typeof startFakeDocker>>;
/** A real Podman service on a unix socket when this machine has one (else the loopback host alone). */
let podman: Podman | null = null;

beforeAll(async () => {
  server = await startTestServer();
  docker = await startFakeDocker();
  const started = await startPodman();
  if ('skip' in started) console.warn(`console fleet: Podman host skipped: ${started.skip}`);
  else podman = started;
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'cust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await docker?.close();
  await podman?.stop();
  await stopTestServer(server);
});

const nav = consoleNav;

describe('console Fleet and Catalog in the browser', () => {
  let page: Page;

  it('adds a host (refusing a remote plain tcp:// first) and drains it', async () => {
    page = await session.newPage();
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    await page.goto('/console');
    await nav(page, 'Fleet');
    await at(page, '/console/fleet');
    await page.getByRole('heading', { name: 'Hosts' }).waitFor();

    await page.getByLabel('Host name', { exact: true }).fill('loop-e2e');
    await page.getByLabel('Docker API URL', { exact: true }).fill('tcp://203.0.113.5:2375');
    await page.getByLabel('Public IPv4', { exact: true }).fill('192.0.2.30');
    await page.getByRole('button', { name: 'Add host' }).click();
    await page
      .getByRole('alert')
      .getByText(/plain tcp:\/\/ is refused for 203\.0\.113\.5/)
      .waitFor();
    // TLS asks for the CA, certificate and key.
    await page.getByLabel('Docker API URL', { exact: true }).fill('https://203.0.113.5:2376');
    await page.getByLabel('Client key (PEM)').waitFor();

    await page.getByLabel('Docker API URL', { exact: true }).fill(docker.url);
    await page.getByRole('button', { name: 'Add host' }).click();
    await page.getByText('Host loop-e2e added.').waitFor();
    const row = page.locator('tr[data-host="loop-e2e"]');
    await row.getByTestId('host-state').getByText('active').waitFor();
    expect(await row.innerText()).toContain('0 / 10');
    expect(docker.calls.some((c) => c.startsWith('GET /v1.41/containers/json'))).toBe(true);

    if (podman) {
      // A real Podman service on its socket, reached the same way.
      await page.getByLabel('Host name', { exact: true }).fill('podman-e2e');
      await page.getByLabel('Docker API URL', { exact: true }).fill(podman.socketUrl);
      await page.getByLabel('Public IPv4', { exact: true }).fill('192.0.2.31');
      await page.getByRole('button', { name: 'Add host' }).click();
      await page.getByText('Host podman-e2e added.').waitFor();
      const podmanRow = page.locator('tr[data-host="podman-e2e"]');
      await podmanRow.getByTestId('host-state').getByText('active').waitFor();
      await podmanRow.getByRole('button', { name: 'Drain podman-e2e' }).click();
      await page
        .getByRole('dialog', { name: 'Drain podman-e2e?' })
        .getByRole('button', { name: 'Drain podman-e2e' })
        .click();
      await podmanRow.getByTestId('host-state').getByText('draining').waitFor();
    }

    // Draining stops new business on the host: the console asks first in its dialog, naming
    // the effect with the host's real count, and Cancel changes nothing.
    const hostState = async () =>
      (
        await server.deps.db
          .selectFrom('hosts')
          .select('state')
          .where('name', '=', 'loop-e2e')
          .executeTakeFirstOrThrow()
      ).state;
    const drainDialog = page.getByRole('dialog', { name: 'Drain loop-e2e?' });
    await row.getByRole('button', { name: 'Drain loop-e2e' }).click();
    expect(await drainDialog.getByTestId('confirm-effect').innerText()).toBe(
      'No new node can be placed on loop-e2e; 0 nodes keep running. Activate it to take new nodes again.',
    );
    await drainDialog.getByRole('button', { name: 'Cancel' }).click();
    await drainDialog.waitFor({ state: 'detached' });
    expect(await row.getByTestId('host-state').innerText()).toBe('active');
    expect(await hostState()).toBe('active');
    await row.getByRole('button', { name: 'Drain loop-e2e' }).click();
    await drainDialog.getByRole('button', { name: 'Drain loop-e2e' }).click();
    await row.getByTestId('host-state').getByText('draining').waitFor();
    await drainDialog.waitFor({ state: 'detached' });
    // One click takes it back (no question: it undoes), and it can be drained again.
    await row.getByRole('button', { name: 'Activate loop-e2e' }).click();
    await row.getByTestId('host-state').getByText('active').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await row.getByRole('button', { name: 'Drain loop-e2e' }).click();
    await drainDialog.getByRole('button', { name: 'Drain loop-e2e' }).click();
    await row.getByTestId('host-state').getByText('draining').waitFor();
    const host = await server.deps.db
      .selectFrom('hosts')
      .select('state')
      .where('name', '=', 'loop-e2e')
      .executeTakeFirstOrThrow();
    expect(host.state).toBe('draining');
    await screenshot(page, 'console-fleet');
  });

  it("puts a coin in maintenance and the customer's open deploy page shows it at once; edits its price", async () => {
    const customerPage = await session.newPage();
    await logInLive(customerPage, customer);
    const subscribed = liveSubscribed(customerPage);
    await customerPage.goto('/dashboard/deploy?coin=dash');
    await subscribed;
    await customerPage.getByRole('heading', { name: /Dash/ }).first().waitFor();
    expect(await customerPage.getByText(MAINTENANCE_NOTICE).count()).toBe(0);

    await nav(page, 'Catalog');
    await at(page, '/console/catalog');
    const maintenance = page.getByLabel('Maintenance of Dash', { exact: true });
    const dashMaintenance = async () =>
      (
        await server.deps.db
          .selectFrom('coins')
          .select('maintenance')
          .where('id', '=', 'dash')
          .executeTakeFirstOrThrow()
      ).maintenance;
    // Maintenance stops new business for the coin: asked first, with its real hosted count.
    const hosted = Number(await page.locator('tr[data-coin="dash"] td').nth(7).innerText());
    const ask = page.getByRole('dialog', { name: 'Put Dash in maintenance?' });
    await maintenance.click();
    expect(await ask.getByTestId('confirm-effect').innerText()).toBe(
      `Dash can't be deployed while in maintenance; ${hosted === 1 ? '1 hosted node keeps' : `${hosted} hosted nodes keep`} running.`,
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await maintenance.isChecked()).toBe(false);
    expect(Boolean(await dashMaintenance())).toBe(false);
    await maintenance.click();
    await ask.getByRole('button', { name: 'Switch maintenance on' }).click();
    // The box follows the server: it turns checked once the change is saved and read back.
    await expect.poll(() => maintenance.isChecked(), { timeout: 15_000 }).toBe(true);
    expect(Boolean(await dashMaintenance())).toBe(true);
    // No reload on the customer's side: the live update_stats refetches the deploy info.
    await customerPage.getByText(MAINTENANCE_NOTICE).waitFor();

    await page.getByRole('button', { name: 'Edit prices of Dash' }).click();
    await page.getByLabel('Dedicated price of Dash', { exact: true }).fill('0.31');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByRole('button', { name: 'Edit prices of Dash' }).getByText('0.31').waitFor();
    expect(
      (
        await server.deps.db
          .selectFrom('coins')
          .select('dedicated_price')
          .where('id', '=', 'dash')
          .executeTakeFirstOrThrow()
      ).dedicated_price,
    ).toBe(310_000);

    // A bad price is refused with its reason and changes nothing.
    await page.getByRole('button', { name: 'Edit prices of Dash' }).click();
    await page.getByLabel('Dedicated price of Dash', { exact: true }).fill('-3');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page
      .getByRole('alert')
      .getByText(/must be a USD amount per day/)
      .waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (
        await server.deps.db
          .selectFrom('coins')
          .select('dedicated_price')
          .where('id', '=', 'dash')
          .executeTakeFirstOrThrow()
      ).dedicated_price,
    ).toBe(310_000);

    // A campaign that would cost more than the regular price is refused in the row.
    await page.getByRole('button', { name: 'Edit prices of Dash' }).click();
    await page.getByLabel('Campaign dedicated price of Dash', { exact: true }).fill('0.4');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page
      .getByRole('alert')
      .getByText(/campaign price must be below the regular dedicated price/)
      .waitFor();
    await page.getByLabel('Campaign dedicated price of Dash', { exact: true }).fill('0.2');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByRole('button', { name: 'Edit prices of Dash' }).waitFor();
    expect(
      await server.deps.db
        .selectFrom('coins')
        .select(['dedicated_price', 'campaign_dedicated_price'])
        .where('id', '=', 'dash')
        .executeTakeFirstOrThrow(),
    ).toEqual({ dedicated_price: 310_000, campaign_dedicated_price: 200_000 });

    await maintenance.click();
    await expect.poll(() => maintenance.isChecked(), { timeout: 15_000 }).toBe(false);
    await customerPage.getByText(MAINTENANCE_NOTICE).waitFor({ state: 'detached' });
    await screenshot(page, 'console-catalog');
  });

  it('starts a daemon image build from the Catalog page and shows how it ended', async () => {
    // The loopback Docker API again (the fake answers no build: the build fails, and says so).
    expect(
      await runCli(
        ['hosts', 'add', 'img-e2e', '--engine', 'docker', '--url', docker.url, '--ipv4', '192.0.2.32'],
        { DATA_DIR: server.dataDir },
        { out: () => {} },
      ),
    ).toBe(0);
    await page.reload();
    const row = page.locator('tr[data-profile="xsnd"]');
    await row.getByLabel('Host to build xsnd on').selectOption('img-e2e');
    // No pinned checksum for this recipe: the page asks for the archive's.
    await row.getByLabel('SHA-256 of the xsnd release archive').fill('ab'.repeat(32));
    await row.getByRole('button', { name: 'Build image' }).click();
    const last = page.getByLabel('Last build of xsnd');
    await last.getByText('failed').waitFor({ timeout: 30_000 });
    expect(await last.innerText()).toMatch(/on img-e2e[\s\S]*docker host tcp:\/\/127\.0\.0\.1:\d+/);
    expect(docker.calls.some((c) => c.startsWith('POST /v1.41/build?') && c.includes('xsnd'))).toBe(true);
    const build = await server.deps.db
      .selectFrom('image_builds')
      .selectAll()
      .where('profile', '=', 'xsnd')
      .executeTakeFirstOrThrow();
    expect(build).toMatchObject({ host: 'img-e2e', state: 'failed' });
    await screenshot(page, 'console-catalog-images');
  });

  it('reads every one of those actions back in the log', async () => {
    await nav(page, 'Log');
    await at(page, '/console/log');
    const rows = page.locator('.console-log-table tbody tr');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    for (const action of ['hosts add', 'hosts drain', 'catalog maintenance', 'catalog set-price', 'images build']) {
      expect(
        texts.some((t) => t.includes(action) && t.includes(operator.username) && t.includes('127.0.0.1')),
        action,
      ).toBe(true);
    }
  });

  it('delists a coin only after the dialog that says what it does; Cancel leaves it listed', async () => {
    const coin = await server.deps.db
      .selectFrom('coins')
      .select(['id', 'label', 'delisted'])
      .where('delisted', '=', 0)
      .where('id', 'not in', server.deps.db.selectFrom('node_view').select('coin_id'))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const delisted = async () =>
      (await server.deps.db.selectFrom('coins').select('delisted').where('id', '=', coin.id).executeTakeFirstOrThrow())
        .delisted;
    await nav(page, 'Catalog');
    await at(page, '/console/catalog');
    const row = page.locator(`tr[data-coin="${coin.id}"]`);
    const ask = page.getByRole('dialog', { name: `Delist ${coin.label}?` });
    await row.getByRole('button', { name: 'Delist' }).click();
    expect(await ask.getByTestId('confirm-effect').innerText()).toBe(
      `No new ${coin.label} node can be deployed, and ${coin.label} leaves the coin lists: it hosts no nodes.`,
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await delisted()).toBe(0);
    await row.getByRole('button', { name: 'Delist' }).click();
    await ask.getByRole('button', { name: `Delist ${coin.label}` }).click();
    await row.getByText('delisted', { exact: true }).waitFor();
    expect(await delisted()).toBe(1);
  });
});
