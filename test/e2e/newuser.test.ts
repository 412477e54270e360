import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { at, browserSession, fitsViewport, screenshot } from './browser';
import { fastFleetEnv } from '../support/fast-fleet';

// What a new user tripped over (issue 7, section 6), in Chromium at desktop width, 390 px
// and 320 px: verify links, landing anchors, pricing, support links, chain data and the
// Simulated badge, charts, small screens, maintenance, billing. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-newuser-');
const fleetEnv = fastFleetEnv(dataDir);
const env = {
  ...fleetEnv,
  SUPPORT_EMAIL: 'help@example.test',
  COMMUNITY_LINKS: 'Telegram=https://t.me/nodekeep_e2e,Discord=https://discord.example.test/nk',
};

let server: TestServer;
const session = browserSession(() => server.url);
const { newPage } = session;
const quiet = { out: () => {} };
const cli = (...args: string[]) => runCli(args, { DATA_DIR: dataDir, ...env }, quiet);

const user = { username: `newbie_${Date.now().toString(36)}`, password: 'newuser-secret-1' };
let mnId = '';

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  await session.launch();
  const post = (p: string, body: unknown) =>
    fetch(server.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/public_api/register', { ...user, email: `${user.username}@example.test` })).status).toBe(200);
  const lines: string[] = [];
  expect(
    await runCli(
      ['fleet', 'create', 'dash', '--user', user.username, '--plan', 'cloud'],
      { DATA_DIR: dataDir, ...env },
      { out: (l) => lines.push(l) },
    ),
  ).toBe(0);
  mnId = /node (\S+) requested/.exec(lines.join('\n'))![1];
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

async function logIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Username or email', { exact: true }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await at(page, '/dashboard');
}

/** The element's box lies inside the viewport's width. */
/**
 * The page has settled: the top bar's progress bar is off, so no query or mutation is in
 * flight and the route change's pulse is over (the page's text and layout are its data's).
 */
async function settled(page: Page) {
  await page.locator('.progress-bar:not(.is-active)').waitFor({ state: 'attached' });
}

async function insideWidth(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

describe('public pages', () => {
  it('sends a bad or used verification link to the home page with a message', async () => {
    const page = await newPage();
    await page.goto('/verify?h=not-a-real-link');
    await at(page, '/');
    await page
      .getByRole('alert')
      .filter({ hasText: /Your email was not verified/ })
      .waitFor();
    await page.context().close();
  });

  it('scrolls /#features and /#overview to their sections on load', async () => {
    for (const [width, id] of [
      [1280, 'features'],
      [390, 'overview'],
      [390, 'features'],
    ] as const) {
      const page = await newPage(width);
      await page.goto(`/#${id}`);
      const section = page.locator(`section#${id}`);
      await section.waitFor();
      // At the top of the screen, or as near as the page's end allows.
      await expect
        .poll(
          async () => {
            const y = (await section.boundingBox())!.y;
            const atEnd = await page.evaluate(
              () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
            );
            return Math.abs(y) < 2 || (atEnd && y >= 0 && y < 500);
          },
          { timeout: 5000 },
        )
        .toBe(true);
      expect(await page.evaluate(() => window.scrollY), `${id} at ${width}`).toBeGreaterThan(100);
      await page.context().close();
    }
  });

  it("prices the plans as the spec's table and shows campaigns as campaigns", async () => {
    const page = await newPage();
    await page.goto('/pricing');
    const plans = page.getByRole('table', { name: 'Plans' });
    await plans.waitFor();
    expect(await plans.locator('tr[data-plan-row="dedicated"] > *').allTextContents()).toEqual([
      'Dedicated',
      'from $3.00',
      '$0.100',
      '99.99%',
      'Dedicated',
    ]);
    expect(await plans.locator('tr[data-plan-row="cloud"] > *').allTextContents()).toEqual([
      'Cloud',
      'from $1.35',
      '$0.045',
      '99.00%',
      'Shared',
    ]);
    // The plans start at the lowest price on offer: Dash's campaign ($0.100, cloud $0.045).
    // The cards agree with the table, and the landing with both.
    expect(await page.getByTestId('plan-dedicated-daily').textContent()).toBe('$0.100');
    expect(await page.getByTestId('plan-cloud-daily').textContent()).toBe('$0.045');
    // Dash runs a campaign: old price struck through, the campaign price beside it.
    const campaigns = page.getByRole('region', { name: 'Campaigns' });
    const dash = campaigns.locator('[data-campaign="dash"]');
    expect(await dash.locator('s').allTextContents()).toEqual(['$0.130', '$0.063']);
    await dash.getByText('$0.100').waitFor();
    const row = page.getByRole('table', { name: 'Prices per coin' }).locator('tr[data-coin="dash"]');
    await row.getByText('Campaign', { exact: true }).waitFor();
    expect(await row.locator('td').nth(1).locator('s').textContent()).toBe('$0.130');
    await screenshot(page, 'newuser-pricing');
    await page.setViewportSize({ width: 390, height: 860 });
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, 'newuser-pricing-390');
    await page.goto('/');
    await page.getByRole('link', { name: 'Pricing from $0.045/day' }).waitFor();
    await page.getByRole('heading', { name: 'Pricing from $0.045/day' }).waitFor();
    await page.getByText('Cloud hosting from $1.35 a month, dedicated from $3.00. No setup fee.').waitFor();
    await page.context().close();
  });

  it('shows the configured support address and community links where the spec does, also on the error app', async () => {
    const page = await newPage();
    await page.goto('/');
    const footer = page.locator('footer');
    expect(await footer.getByRole('link', { name: 'Telegram' }).getAttribute('href')).toBe('https://t.me/nodekeep_e2e');
    expect(await footer.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('mailto:help@example.test');
    await page.goto('/no-such-page');
    await at(page, '/404');
    expect(await page.getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('mailto:help@example.test');
    expect(await page.content()).not.toContain('nodekeep.local');

    // The server cannot be reached: the error app still has the links this browser was given.
    await page.route('**/trpc/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByText('Oops! Looks like there is a problem on our side').waitFor();
    const community = page.getByRole('navigation', { name: 'Community and support' });
    expect(await community.getByRole('link', { name: 'Discord' }).getAttribute('href')).toBe(
      'https://discord.example.test/nk',
    );
    await community.getByRole('link', { name: 'help@example.test' }).waitFor();
    await screenshot(page, 'newuser-error-app');
    await page.context().close();
  });
});

describe('coin pages', () => {
  it("fill the wallet and latest block from the fleet's simulated node, marked Simulated; one Block time row", async () => {
    const page = await newPage();
    await page.goto('/dashboard/view_coin?coin=dash');
    const chain = page.getByRole('region', { name: /Wallet and latest block/ });
    await expect
      .poll(async () => (await chain.getByTestId('latest-block').textContent())?.trim(), { timeout: 15_000 })
      .toMatch(/^\d[\d,]*$/);
    await chain.getByTestId('simulated-badge').waitFor();
    await chain.getByText(/Nodekeep-Simulator/).waitFor();
    const specs = page.getByRole('region', { name: 'Specifications' });
    expect(await specs.getByRole('rowheader', { name: 'Block time', exact: true }).count()).toBe(1);

    // Charts: the legend shows the latest values when the pointer is elsewhere.
    const legend = page.locator('.chart-card .u-legend').first();
    await legend.waitFor();
    expect(await legend.innerText()).not.toMatch(/--/);
    await page.context().close();
  });

  it('keep sub-cent price axis labels inside the chart and distinct', async () => {
    const detailed = (await fetch(`${server.url}/public_api/get_detailed`).then((r) => r.json())) as {
      data: { id: string; price_usd: number | null }[];
    };
    const tiny = detailed.data.find((r) => r.price_usd !== null && r.price_usd < 0.01 && r.price_usd > 0)!;
    const page = await newPage(390);
    await page.goto(`/dashboard/view_coin?coin=${tiny.id}`);
    const chart = page.locator('.chart-card').first();
    await chart.locator('canvas').waitFor();
    // uPlot draws the axis into a box of the size we measured for the labels: it must hold the widest one.
    const fits = await chart.evaluate((el) => {
      const plot = el.querySelector('.u-over') as HTMLElement;
      const left = plot.getBoundingClientRect().left - el.querySelector('.u-wrap')!.getBoundingClientRect().left;
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = '12px system-ui, sans-serif';
      return { left, widest: ctx.measureText('$0.000000').width };
    });
    expect(fits.left).toBeGreaterThan(fits.widest);
    expect(await page.locator('.chart-card .u-legend').first().innerText()).toMatch(/\$0\.0000?\d{2,}/);
    await screenshot(page, 'newuser-subcent-chart-390');
    await page.context().close();
  });
});

describe('a signed-in customer', () => {
  it('sees the Simulated badge, no fake IP and no worth, and real billing totals', async () => {
    const page = await newPage();
    await logIn(page);
    await page.goto('/dashboard/portfolio');
    const row = page.locator(`tr[data-mn="${mnId}"]`);
    await row.getByTestId('simulated-badge').waitFor({ timeout: 15_000 });
    expect((await row.locator('[data-col="worth"]').textContent())?.trim()).toBe('--');
    await page.goto(`/dashboard/masternode/${mnId}`);
    await page.getByRole('heading', { name: mnId }).waitFor();
    await page.locator('.node-header').getByTestId('simulated-badge').waitFor();
    expect(await page.getByText('None: a simulated node has no address on the network').count()).toBe(1);
    expect(await page.getByText('192.0.2.').count()).toBe(0);
    expect((await page.locator('.stat', { hasText: 'Investment' }).locator('.stat-value').textContent())?.trim()).toBe(
      'None (simulated)',
    );
    // Worth and ROI are not shown as if the node earned.
    expect(await page.getByRole('region', { name: 'Value' }).count()).toBe(0);

    await page.goto('/dashboard/billing');
    const stat = (label: string) => page.locator('.stat', { hasText: label }).locator('.stat-value');
    await expect.poll(async () => (await stat('Total nodes').textContent())?.trim()).toBe('1');
    expect((await stat('Monthly expenses').textContent())?.trim()).toBe('$1.35'); // 30 × Dash's $0.045 cloud campaign price
    await page.getByRole('link', { name: 'contact support' }).waitFor();
    // No placeholder speaks of our plans.
    for (const p of [
      '/dashboard/billing',
      '/dashboard/api',
      '/dashboard/affiliate',
      '/dashboard/notifications',
      '/dashboard/deploy?coin=dash',
      `/dashboard/masternode/${mnId}?tab=config`,
    ]) {
      await page.goto(p);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await settled(page);
      expect(await page.locator('body').innerText(), p).not.toMatch(
        /deploy issue|deploy wizard|later issue|arrives with|not open yet|coming soon/i,
      );
    }
    // The dashboard has a footer with the support links.
    expect(await page.locator('footer').getByRole('link', { name: 'Telegram' }).count()).toBe(1);
    await page.context().close();
  });

  it('works at 390 px: menu on screen, totals visible, coins and nodes as cards, every tab reachable', async () => {
    const page = await newPage(390);
    await logIn(page);
    await page.getByTestId('stat-hosted-nodes').waitFor();
    expect(await page.getByTestId('stat-hosted-nodes').isVisible()).toBe(true);
    expect(await page.getByTestId('stat-listed-projects').isVisible()).toBe(true);
    expect(await insideWidth(page, '[data-testid="stat-listed-projects"]')).toBe(true);

    await page.getByRole('button', { name: /^Notifications/ }).click();
    const menu = page.getByRole('region', { name: 'Notification list' });
    await menu.waitFor();
    expect(await insideWidth(page, '.notifications-menu')).toBe(true);
    await screenshot(page, 'newuser-notifications-390', { fullPage: false });
    await page.keyboard.press('Escape');

    for (const name of ['Coins', 'Portfolio', 'Deploy', 'Staking', 'Affiliate']) {
      const link = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    }
    // The coin list and the portfolio are cards at this width: nothing to scroll sideways (issue 24).
    await page.locator('tr[data-coin]').first().waitFor();
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);
    await page.goto('/dashboard/portfolio');
    await page.locator(`tr[data-mn="${mnId}"]`).waitFor();
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);
    await screenshot(page, 'newuser-portfolio-390');

    // A long network status wraps after an underscore, never inside a word.
    await page.goto(`/dashboard/masternode/${mnId}`);
    const status = page.getByTestId('network-status');
    await status.waitFor();
    expect(await status.evaluate((el) => getComputedStyle(el).wordBreak)).toBe('normal');
    expect(await status.evaluate((el) => el.querySelectorAll('wbr').length)).toBeGreaterThan(0);
    await screenshot(page, 'newuser-node-390');
    await page.context().close();
  });

  it('fits 320 px on every logged-in page', async () => {
    const page = await newPage(320);
    await logIn(page);
    for (const p of [
      '/dashboard',
      '/dashboard/portfolio',
      `/dashboard/masternode/${mnId}`,
      '/dashboard/billing',
      '/dashboard/settings',
      '/dashboard/notifications',
      '/dashboard/api',
      '/dashboard/affiliate',
      '/dashboard/deploy?coin=dash',
      '/dashboard/staking',
      '/dashboard/view_coin?coin=dash',
    ]) {
      await page.goto(p);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await settled(page);
      expect(await fitsViewport(page), p).toBe(true);
    }
    await screenshot(page, 'newuser-coin-320');
    await page.context().close();
  });
});

describe('maintenance', () => {
  it("switches a visitor's open tab to the maintenance app and back, by asking the server now and then", async () => {
    const page = await newPage();
    await page.clock.install();
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Pricing' }).waitFor();
    expect(await cli('maintenance', 'on')).toBe(0);
    try {
      await page.clock.runFor(61_000);
      await at(page, '/maintenance');
      await page.getByText("We're just tuning up a few things.").waitFor();
    } finally {
      expect(await cli('maintenance', 'off')).toBe(0);
    }
    await page.clock.runFor(16_000);
    await at(page, '/pricing');
    await page.context().close();
  });

  it("takes a user's tab out of maintenance back where it was, and reports no visits meanwhile", async () => {
    const page = await newPage();
    // The page's clock runs as usual until the test moves it on (the maintenance recheck).
    await page.clock.install();
    const subscribed = page
      .waitForEvent('websocket')
      .then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('"sync"') }));
    await logIn(page);
    await subscribed;
    await page.goto(`/dashboard/portfolio?q=1`);
    await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
    const visits: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('auth.visited')) visits.push(r.url());
    });
    expect(await cli('maintenance', 'on')).toBe(0);
    try {
      await at(page, '/maintenance');
      await page.getByText("We're just tuning up a few things.").waitFor();
      // Witness: the maintenance page's own recheck of system.status, 15 s on the page's
      // clock after it came, goes out after any visit its arrival would have reported.
      const rechecked = page.waitForRequest((r) => r.url().includes('system.status'));
      await page.clock.runFor(16_000);
      await rechecked;
      expect(visits).toEqual([]);
    } finally {
      expect(await cli('maintenance', 'off')).toBe(0);
    }
    await at(page, '/dashboard/portfolio?q=1');
    await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
    expect(await page.getByText('No maintenance right now').count()).toBe(0);
    await page.context().close();
  });
});
