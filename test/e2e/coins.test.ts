import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { formatBalance, formatDailyPrice, formatNumber, formatPercent, formatPrice } from '../../src/shared/format';
import { income } from '../../src/shared/roi';
import type { CoinDetail, GetCoinsOutput } from '../../src/shared/schemas/coins';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { freshUser } from '../support/users';
import { at, browserSession, fitsViewport, screenshot } from './browser';
import { insertTestNode } from '../support/nodes';

// The coin catalog's pages: the coin list, the top bar totals, view_coin, pricing and
// the FAQ, against the real catalog (36 coins: pac and bwk delisted, bitg in
// maintenance) and the offline demo market data. Run `npm run build:client` first.

let server: TestServer;
const session = browserSession(() => server.url);
const { newPage } = session;

type Detailed = {
  data: {
    id: string;
    dedicated_price_usd: number;
    cloud_price_usd: number | null;
    regular_dedicated_price_usd: number;
    regular_cloud_price_usd: number | null;
    delisted: boolean;
    coming_soon: boolean;
  }[];
};

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The market refresher starts with the server: wait for prices, exchanges and chart history of dash. */
async function waitForMarketData() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const coins = await getJson<GetCoinsOutput>('/public_api/get_coins');
    if (typeof coins.data.dash?.masternode_value.value === 'number') {
      const dash = (await getJson<{ data: CoinDetail }>('/public_api/get_coin?coin=dash')).data;
      if (dash.exchanges.length > 0 && dash.charts.every((c) => c.values.length >= 2)) return;
    }
    if (Date.now() > deadline) throw new Error('no market data after 30 s');
    await sleep(250);
  }
}

beforeAll(async () => {
  // The longest refresh interval: fewer refreshes moving prices while a test compares them.
  server = await startTestServer({ MARKET_REFRESH_MINUTES: '15' });
  await session.launch();
  await waitForMarketData();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

const coinTable = (page: Page) => page.getByRole('table', { name: 'Coins', exact: true });
const delistedTable = (page: Page) => page.getByRole('table', { name: 'Delisted coins', exact: true });
const rowsOf = (table: Locator) => table.locator('tbody tr[data-coin]');
const idsOf = (table: Locator) => rowsOf(table).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-coin')!));

/** The ROI column as numbers, "--" as null. */
async function roiValues(page: Page): Promise<(number | null)[]> {
  const texts = await rowsOf(coinTable(page)).locator('td[data-col="roi"]').allTextContents();
  return texts.map((t) => (t.trim() === '--' ? null : Number(t.replace(/[%,]/g, ''))));
}

function expectSorted(values: (number | null)[], dir: 'asc' | 'desc') {
  const known = values.filter((v): v is number => v !== null);
  // Missing figures go last in both directions.
  expect(values.slice(0, known.length)).toEqual(known);
  const sorted = [...known].sort((a, b) => (dir === 'asc' ? a - b : b - a));
  expect(known).toEqual(sorted);
}

/** "$2,908.15" → 2908.15 */
const money = (text: string | null) => Number((text ?? '').replace(/[$,\s]/g, ''));

async function scrollToBottom(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

describe('coin list', () => {
  it('shows 20 coins, more on scroll, searches, sorts and marks demo data', async () => {
    const coins = await getJson<GetCoinsOutput>('/public_api/get_coins');
    const listed = coins.order.filter((id) => !coins.data[id]!.delisted);
    expect(listed.length).toBeGreaterThan(20);

    const page = await newPage();
    await page.goto('/dashboard');
    const table = coinTable(page);
    await rowsOf(table).first().waitFor();
    expect(await rowsOf(table).count()).toBe(20);
    // Default sort: hosted nodes descending, then the server's order.
    expect(await idsOf(table)).toEqual(listed.slice(0, 20));
    expect(await table.getByRole('columnheader', { name: 'Hosted nodes' }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    // The top bar totals, for a visitor too.
    const stats = await getJson<{ data: { total_mns: number; supported_mns: number } }>('/public_api/get_stats');
    await expect
      .poll(() => page.getByTestId('stat-listed-projects').textContent())
      .toBe(String(stats.data.supported_mns));
    expect(await page.getByTestId('stat-hosted-nodes').textContent()).toBe(String(stats.data.total_mns));

    await screenshot(page, 'dashboard', { fullPage: false });

    // The demo provider is named, with an explanation on focus.
    const badge = page.getByTestId('demo-badge');
    await badge.focus();
    await page
      .getByRole('tooltip')
      .filter({ hasText: /offline demo data/ })
      .waitFor();

    // A coin in maintenance: badge, and no way to deploy.
    const bitg = table.locator('tr[data-coin="bitg"]');
    await bitg.getByText('Maintenance', { exact: true }).waitFor();
    expect(await bitg.getByRole('button', { name: /Deploy/ }).isDisabled()).toBe(true);
    const dash = table.locator('tr[data-coin="dash"]');
    expect(await dash.getByRole('link', { name: 'Deploy Dash' }).getAttribute('href')).toBe(
      '/dashboard/deploy?coin=dash',
    );
    expect(await dash.getByRole('link', { name: /Dash/ }).first().getAttribute('href')).toBe(
      '/dashboard/view_coin?coin=dash',
    );
    expect(await dash.locator('td[data-col="monthly_fee"]').textContent()).toBe(
      `$${formatBalance(30 * coins.data.dash!.host_price)}`,
    );

    // Scrolling near the bottom brings 20 more, then the rest.
    await scrollToBottom(page);
    await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(20);
    await scrollToBottom(page);
    await expect.poll(() => rowsOf(table).count()).toBe(listed.length);
    expect(await idsOf(table)).toEqual(listed);

    // Search matches label, ticker and id; clearing brings the list back.
    const search = page.getByRole('searchbox', { name: 'Search coins' });
    await search.fill('dash');
    const matching = listed.filter((id) =>
      [id, coins.data[id]!.label, coins.data[id]!.ticker].some((s) => s.toLowerCase().includes('dash')),
    );
    await expect.poll(() => idsOf(table)).toEqual(matching);
    await search.fill('zzz-no-coin');
    await page.getByText('No coins match “zzz-no-coin”.').waitFor();
    await search.fill('');
    await expect.poll(() => rowsOf(table).count()).toBe(listed.length);

    // ROI: first click sorts descending, the second ascending.
    const roiHeader = table.getByRole('button', { name: 'ROI', exact: true });
    await roiHeader.click();
    expect(await table.getByRole('columnheader', { name: 'ROI' }).getAttribute('aria-sort')).toBe('descending');
    const desc = await roiValues(page);
    expect(desc.length).toBe(listed.length);
    expectSorted(desc, 'desc');
    await roiHeader.click();
    expect(await table.getByRole('columnheader', { name: 'ROI' }).getAttribute('aria-sort')).toBe('ascending');
    const asc = await roiValues(page);
    expectSorted(asc, 'asc');
    expect(asc.filter((v) => v !== null)).toEqual([...desc.filter((v) => v !== null)].reverse());

    // No delisted coin has hosted nodes yet: no Delisted section.
    expect(await page.getByRole('heading', { name: 'Delisted' }).count()).toBe(0);
    expect(await delistedTable(page).count()).toBe(0);
    await page.context().close();
  });

  it('shows a delisted coin in its own section while it has hosted nodes', async () => {
    const user = await freshUser(server.deps, { prefix: 'e2e_coins_', verified: false, login: false });

    const page = await newPage();
    await page.goto('/dashboard');
    await rowsOf(coinTable(page)).first().waitFor();
    expect(await delistedTable(page).count()).toBe(0);

    await insertTestNode(server.deps.db, { mn_id: 'e2e-1', user_id: user.id, coin_id: 'pac', status: 'running' });
    // Public answers may be cached for a second: reload until the page shows the node's coin.
    const delisted = delistedTable(page);
    await waitFor(
      async () => {
        await page.reload();
        await rowsOf(coinTable(page)).first().waitFor();
        return (await rowsOf(delisted).count()) > 0;
      },
      15_000,
      'the delisted section',
    );
    await page.getByRole('heading', { name: 'Delisted', exact: true }).waitFor();
    expect(await idsOf(delisted)).toEqual(['pac']);
    expect(await coinTable(page).locator('tr[data-coin="pac"]').count()).toBe(0);
    expect(await delisted.getByRole('link', { name: /Deploy/ }).count()).toBe(0);
    await delisted.locator('tr[data-coin="pac"] td[data-col="hosted_mns"]').filter({ hasText: '1' }).waitFor();
    // The platform stats are a public answer of their own, cached apart: reloaded until they count the node too.
    await waitFor(
      async () => {
        if ((await page.getByTestId('stat-hosted-nodes').textContent()) === '1') return true;
        await page.reload();
        await page.getByTestId('stat-hosted-nodes').filter({ hasText: /\d/ }).waitFor();
        return false;
      },
      15_000,
      'the hosted-nodes stat',
    );
    await screenshot(page, 'dashboard-delisted');

    // Once its last node is deleted, the coin leaves the list (again past any cached answer:
    // reloaded until the page, fully drawn, has no delisted section).
    await server.deps.db
      .updateTable('nodes')
      .set({ state: 'deleted', deleted_at: Date.now() })
      .where('mn_id', '=', 'e2e-1')
      .execute();
    await waitFor(
      async () => {
        await page.reload();
        await rowsOf(coinTable(page)).first().waitFor();
        return (await delistedTable(page).count()) === 0;
      },
      15_000,
      'the delisted section to go',
    );
    await page.context().close();
  });
});

describe('view_coin', () => {
  it('redirects without a coin, for an unknown coin, and for a coin without a price', async () => {
    const page = await newPage();
    await page.goto('/dashboard/view_coin');
    await at(page, '/dashboard');
    await page.goto('/dashboard/view_coin?coin=nosuchcoin');
    await at(page, '/dashboard');
    await page.goto('/dashboard/view_coin?coin=not%20an%20id!');
    await at(page, '/dashboard');

    // No market quote, no price: the deploy page instead, which needs a login.
    await server.deps.db.deleteFrom('market_quotes').where('coin_id', '=', 'mue').execute();
    await page.goto('/dashboard/view_coin?coin=mue');
    await at(page, `/login?redirect=${encodeURIComponent('/dashboard/deploy?coin=mue')}`);
    await page.context().close();
  });

  it(
    'shows the coin, its charts and an income calculator that matches the shared formula',
    { timeout: 60_000 },
    async () => {
      const page = await newPage();
      let coin: CoinDetail | undefined;
      // The demo prices move when the refresher runs: compare with the data the page shows.
      for (let attempt = 0; attempt < 3 && !coin; attempt++) {
        await page.goto('/dashboard/view_coin?coin=dash');
        const shownPrice = await page.getByTestId('market-price').textContent();
        const data = (await getJson<{ data: CoinDetail }>('/public_api/get_coin?coin=dash')).data;
        if (shownPrice === `$${formatPrice(data.market_data!.price)}`) coin = data;
        else await sleep(1100);
      }
      expect(coin).toBeDefined();
      const c = coin!;
      const market = c.market_data!;

      // Header, alerts, links.
      await page.getByRole('heading', { level: 1, name: /Dash/ }).waitFor();
      expect(await page.getByRole('link', { name: 'Deploy a node' }).getAttribute('href')).toBe(
        '/dashboard/deploy?coin=dash',
      );
      await page.getByText(c.alerts[0]!.title).waitFor();
      await page
        .getByRole('navigation', { name: 'Links' })
        .getByRole('link', { name: /Website/ })
        .waitFor();

      // Statistics and specifications, by their display format.
      const statistics = page.getByRole('table', { name: 'Statistics' });
      await statistics.locator('tr[data-variable="roi"]').getByText(formatPercent(c.roi!)).waitFor();
      await statistics
        .locator('tr[data-variable="price"]')
        .getByText(`$${formatPrice(market.price)}`)
        .waitFor();
      await statistics.locator('tr[data-variable="network_nodes"]').getByText('3,000').waitFor();
      await page.getByRole('table', { name: 'Specifications' }).getByText('X11').waitFor();

      // Exchanges.
      const exchanges = page.getByRole('table', { name: 'Exchanges' });
      expect(await exchanges.locator('tbody tr').count()).toBe(c.exchanges.length);
      await exchanges.getByText(c.exchanges[0]!.exchange.name).first().waitFor();
      await exchanges.getByText(formatPercent(c.exchanges[0]!.volume_percent)).first().waitFor();

      // Two uPlot charts.
      await expect.poll(() => page.locator('.chart-card canvas').count()).toBe(2);
      await page.getByRole('figure', { name: /Market chart: Market cap and Volume/ }).waitFor();

      // Chain data is not known yet.
      expect(await page.getByTestId('latest-block').textContent()).toBe('—');
      await page.getByText('No node of this coin has reported its chain to the platform lately.').waitFor();

      // Income calculator: 1 node at the current price and ROI, then 3 nodes.
      const expected = income(c.collateral, market.price, c.roi!);
      const yearly = page.getByTestId('income-yearly');
      expect(Math.abs(money(await yearly.textContent()) - expected.yearly)).toBeLessThan(0.0051);
      expect(Math.abs(money(await page.getByTestId('income-monthly').textContent()) - expected.monthly)).toBeLessThan(
        0.0051,
      );
      expect(Math.abs(money(await page.getByTestId('income-daily').textContent()) - expected.daily)).toBeLessThan(
        0.0051,
      );
      const nodes = page.getByLabel('Number of nodes');
      expect(await nodes.inputValue()).toBe('1');
      await nodes.fill('3');
      await expect
        .poll(async () => Math.abs(money(await yearly.textContent()) - 3 * expected.yearly))
        .toBeLessThan(0.0051);
      expect(await page.getByTestId('income-collateral').textContent()).toBe(`${formatNumber(3 * c.collateral)} DASH`);
      expect(await page.getByTestId('income-hosting').textContent()).toBe(
        `$${formatBalance(3 * 30 * c.dedicated_price)}`,
      );
      await screenshot(page, 'view_coin');

      // Bad input: a message, dashes, never NaN.
      for (const bad of ['', '-2', 'abc', '1.5']) {
        await nodes.fill(bad);
        await page.getByRole('alert').filter({ hasText: /node/ }).waitFor();
        expect(await yearly.textContent()).toBe('--');
      }
      await nodes.fill('5000');
      await page.getByText('At most 1000 nodes: showing 1000.').waitFor();
      expect(await page.getByTestId('income-collateral').textContent()).toBe(
        `${formatNumber(1000 * c.collateral)} DASH`,
      );
      await nodes.fill('1');
      const price = page.getByLabel('Price (USD)');
      await price.fill('12x');
      await page.getByRole('alert').filter({ hasText: /price/ }).waitFor();
      expect(await yearly.textContent()).toBe('--');
      await price.fill('10');
      await page.getByLabel('ROI (% per year)').fill('-1');
      await page.getByRole('alert').filter({ hasText: /ROI/ }).waitFor();
      await page.getByLabel('ROI (% per year)').fill('10');
      expect(money(await yearly.textContent())).toBeCloseTo(income(c.collateral, 10, 10).yearly, 2);
      expect(await page.locator('body').textContent()).not.toContain('NaN');
      await page.context().close();
    },
  );
});

describe('public pages', () => {
  it('prices both plans from the coins and lists every coin', async () => {
    const detailed = await getJson<Detailed>('/public_api/get_detailed');
    const listed = detailed.data.filter((r) => !r.delisted);
    const offered = listed.filter((r) => !r.coming_soon);
    // The plans start at the lowest price on offer now, campaign prices included.
    const dedicated = Math.min(...offered.map((r) => r.dedicated_price_usd));
    const cloud = Math.min(...offered.flatMap((r) => (r.cloud_price_usd === null ? [] : [r.cloud_price_usd])));

    const page = await newPage();
    await page.goto('/pricing');
    const dedicatedCard = page.locator('[data-plan="dedicated"]');
    const cloudCard = page.locator('[data-plan="cloud"]');
    await dedicatedCard
      .getByTestId('plan-dedicated-daily')
      .filter({ hasText: `$${formatDailyPrice(dedicated)}` })
      .waitFor();
    expect(await dedicatedCard.getByTestId('plan-dedicated-monthly').textContent()).toBe(
      `from $${formatBalance(30 * dedicated)}/mo`,
    );
    expect(await cloudCard.getByTestId('plan-cloud-daily').textContent()).toBe(`$${formatDailyPrice(cloud)}`);
    expect(await cloudCard.getByTestId('plan-cloud-monthly').textContent()).toBe(
      `from $${formatBalance(30 * cloud)}/mo`,
    );
    await dedicatedCard.getByText('99.99% uptime').waitFor();
    await dedicatedCard.getByText('Dedicated resources').waitFor();
    await cloudCard.getByText('99.00% uptime').waitFor();
    await cloudCard.getByText('Shared resources').waitFor();

    const table = page.getByRole('table', { name: 'Prices per coin' });
    expect(await rowsOf(table).count()).toBe(listed.length);
    const noCloud = listed.find((r) => r.cloud_price_usd === null)!;
    expect(await table.locator(`tr[data-coin="${noCloud.id}"] td`).allTextContents()).toEqual([
      expect.any(String),
      `$${formatDailyPrice(noCloud.dedicated_price_usd)}`,
      `$${formatBalance(30 * noCloud.dedicated_price_usd)}`,
      '—',
      '—',
    ]);
    // No SUPPORT_EMAIL here: the words stay, without a link (newuser.test.ts checks the link when it is set).
    await page.getByText(/Contact us for an offer/).waitFor();
    expect(await page.getByRole('link', { name: 'Contact us' }).count()).toBe(0);
    await screenshot(page, 'pricing');

    await page.getByRole('searchbox', { name: 'Search coins' }).fill('dash');
    await expect.poll(() => idsOf(table)).toEqual(['dash']);
    await page.context().close();
  });

  it('filters the FAQ accordion', async () => {
    const page = await newPage();
    await page.goto('/faq');
    const buttons = page.locator('.accordion-button');
    await buttons.first().waitFor();
    const all = await buttons.count();
    expect(all).toBeGreaterThan(10);
    // Closed at first; a click opens one.
    const first = page.getByRole('button', { name: 'How am I charged for hosting?' });
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.getByText(/charged its daily price at 00:00 UTC/).waitFor();

    const search = page.getByLabel('Search the FAQ');
    await search.fill('refund');
    await expect.poll(() => buttons.count()).toBe(1);
    expect(await buttons.first().textContent()).toBe('Can I get a refund?');
    expect(await buttons.first().getAttribute('aria-expanded')).toBe('true');
    await search.fill('horizen');
    await page.getByText(/Horizen nodes get their first reward after 1 week/).waitFor();
    await search.fill('xyzzy');
    await page.getByText('No questions match “xyzzy”.').waitFor();
    await search.fill('');
    await expect.poll(() => buttons.count()).toBe(all);
    await page.getByRole('button', { name: 'What is the usual status flow of a new node?' }).click();
    await page.getByText(/Deploying → Unknown → Syncing\/Pending → Start required → Running/).waitFor();
    await screenshot(page, 'faq');
    await page.context().close();
  });

  it('fits the coin pages into a 390 px wide screen', async () => {
    const page = await newPage(390);
    await page.goto('/dashboard');
    await rowsOf(coinTable(page)).first().waitFor();
    expect(await fitsViewport(page)).toBe(true);
    await page.goto('/dashboard/view_coin?coin=dash');
    await expect.poll(() => page.locator('.chart-card canvas').count()).toBe(2);
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, 'mobile-view_coin');
    await page.goto('/pricing');
    await rowsOf(page.getByRole('table', { name: 'Prices per coin' }))
      .first()
      .waitFor();
    expect(await fitsViewport(page)).toBe(true);
    await page.context().close();
  });
});
