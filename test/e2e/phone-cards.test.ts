import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';
import { launcherOverlaps } from './launcherClear';
import { fastFleetEnv } from '../support/fast-fleet';

// The coin list and the portfolio at phone width (390 px) are cards: ROI, fee, status
// and Deploy (a node's status and its links) show without sideways scrolling; at 1280 px
// the portfolio fits; the support chat's launcher covers no link, table or toast at any
// scroll position. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-phone-');
const env = fastFleetEnv(dataDir);

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { id: 0, username: '', password: '', token: '' };

async function createNode(coin: string): Promise<void> {
  const lines: string[] = [];
  const code = await runCli(
    ['fleet', 'create', coin, '--user', owner.username, '--plan', 'cloud'],
    { DATA_DIR: dataDir, ...env },
    { out: (l) => lines.push(l) },
  );
  expect(code, lines.join('\n')).toBe(0);
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth);

/** Wholly inside the window's width. */
async function inView(page: Page, el: Locator) {
  const box = (await el.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** The support chat's launcher lies over no link, table cell or toast at any scroll position (launcherClear.ts). */
async function bubbleCoversNothing(page: Page) {
  await page.getByRole('button', { name: /^Chat with support/ }).waitFor();
  expect(await launcherOverlaps(page)).toEqual([]);
}

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'phone_' }));
  await createNode('pivx');
  await createNode('dash');
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('phone and desktop widths', () => {
  it(
    '390 px: the coin list and the portfolio are cards with nothing to scroll sideways',
    { timeout: 90_000 },
    async () => {
      const page = await session.newPage(390);
      await logInLive(page, owner);
      await page.goto('/dashboard');
      const dash = page.getByRole('table', { name: 'Coins' }).locator('tr[data-coin="dash"]');
      await dash.waitFor();
      await inView(page, dash.locator('td[data-col="roi"]'));
      await inView(page, dash.locator('td[data-col="monthly_fee"]'));
      await inView(page, dash.getByRole('link', { name: 'Deploy Dash' }));
      // Each figure says what it is beside it (its column's header is not above it on a card).
      expect(await dash.locator('td[data-col="roi"]').evaluate((el) => getComputedStyle(el, '::before').content)).toBe(
        '"ROI"',
      );
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await page.getByTestId('scroll-hint').count()).toBe(0);
      await bubbleCoversNothing(page);
      await screenshot(page, 'phone-coins');

      await page.goto('/dashboard/portfolio');
      const rows = page.getByRole('table', { name: 'Masternodes' }).locator('tbody tr');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
      for (const row of await rows.all()) {
        await inView(page, row.locator('.node-status'));
        await inView(page, row.getByRole('link', { name: /^Open / }));
        await inView(page, row.getByRole('link', { name: /^Delete / }));
      }
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await page.getByTestId('scroll-hint').count()).toBe(0);
      await bubbleCoversNothing(page);
      await screenshot(page, 'phone-portfolio');
      await page.context().close();
    },
  );

  it('1280 px: the portfolio fits without sideways scrolling', { timeout: 60_000 }, async () => {
    const page = await session.newPage(1280);
    await logInLive(page, owner);
    await page.goto('/dashboard/portfolio');
    const rows = page.getByRole('table', { name: 'Masternodes' }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await noSidewaysScroll(page)).toBe(true);
    // Nor inside its table.
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);
    expect(await page.locator('.table-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await bubbleCoversNothing(page);
    await screenshot(page, 'desktop-portfolio');
    await page.context().close();
  });
});
