import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findCoin } from '../../src/server/coins/queries';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';
import { at, browserSession, liveSubscribed, screenshot } from './browser';

// The runway in Chromium (issue 24 item 6 and "Money"): balance ÷ daily fees in the top
// bar and on Billing and Portfolio, following the ledger live; the banner under 3 days,
// naming the nodes that go at 00:00 UTC and what keeps them; the monthly statement and
// the CSV download. Money moves through the real ledger. `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

/** Moves the user's balance by `micros` through the ledger and delivers its live events at once. */
async function move(u: FreshUser, key: string, micros: number) {
  await server.deps.db.transaction().execute((trx) =>
    postTransfer(trx, {
      idempotencyKey: `${key}-${u.id}`,
      debit: micros < 0 ? userAccount(u.id) : PLATFORM.adjustments,
      credit: micros < 0 ? PLATFORM.adjustments : userAccount(u.id),
      amount: Math.abs(micros),
      kind: 'adjustment',
      description: micros < 0 ? 'Correction' : 'Funds',
    }),
  );
  await server.deps.hub.poke();
}

const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.locator('.stat-label').getByText(label, { exact: true }) }).locator('.stat-value');
const shows = (locator: ReturnType<Page['locator']>, text: string) =>
  locator.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}$`) }).waitFor();

describe('the runway', () => {
  it('shows in the top bar, on Portfolio and Billing, warns under 3 days and names the nodes that go', async () => {
    const u = await freshUser(server.deps, { prefix: 'runway' });
    const mnIds = [`dash-rw1-${u.id}`, `dash-rw2-${u.id}`];
    for (const mn_id of mnIds)
      await insertTestNode(server.deps.db, {
        mn_id,
        user_id: u.id,
        coin_id: 'dash',
        created_at: Date.now() - 86_400_000,
        state: 'live',
        hosting_price: 1_050_000,
        deleted_at: null,
        failed_reason: null,
      });
    const dash = (await findCoin(server.deps.db, 'dash'))!.label;
    await move(u, 'fund', 10_000_000);

    const page = await session.newPage();
    await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), u.token);
    const subscribed = liveSubscribed(page);
    await page.goto('/dashboard/portfolio');
    await subscribed;
    // $10.00 at $2.10 a day: 114 hours.
    await shows(page.getByTestId('topbar-runway'), '4 days 18 hours left');
    await shows(stat(page, 'Runway'), '4 days 18 hours');
    expect(await page.getByTestId('runway-banner').count()).toBe(0);

    // $5.00: under 3 days, the banner (live, no reload).
    await move(u, 'spend1', -5_000_000);
    await shows(page.getByTestId('topbar-runway'), '2 days 9 hours left');
    const banner = page.getByTestId('runway-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toBe(
      'Your balance pays for 2 days 9 hours of hosting at $2.10 a day. Add funds',
    );
    await screenshot(page, 'runway-banner');

    // $0.09: the next charge is not covered; which nodes go and what keeps them.
    await move(u, 'spend2', -4_910_000);
    await shows(page.getByTestId('topbar-runway'), '1 hour left');
    await banner.filter({ hasText: /does not cover/ }).waitFor();
    expect(await banner.textContent()).toBe(
      'Your balance does not cover the next daily charge of $2.10 at 00:00 UTC. Add at least $2.01 before then, ' +
        `or these 2 nodes will be destroyed: ${mnIds.map((m) => `${dash} node ${m}`).join(', ')}. Add funds`,
    );
    await banner.getByRole('link', { name: 'Add funds' }).click();
    await at(page, '/dashboard/billing');
    await shows(stat(page, 'Runway'), '1 hour');
    await screenshot(page, 'runway-billing-short');

    // The statement of this month: from $0.00 to $0.09, every line with the balance after it.
    await page.getByRole('link', { name: 'Monthly statements' }).click();
    const month = new Date().toISOString().slice(0, 7);
    await at(page, `/dashboard/billing/statement?month=${month}`);
    await shows(page.getByTestId('statement-closing'), '$0.09');
    expect(await page.getByTestId('statement-opening').textContent()).toBe('$0.00');
    const lines = await Promise.all(
      (await page.getByTestId('statement-row').all()).map(async (r) =>
        (await r.locator('td').allTextContents()).slice(1),
      ),
    );
    expect(lines).toEqual([
      ['Funds', '$10.00', '$10.00'],
      ['Correction', '-$5.00', '$5.00'],
      ['Correction', '-$4.91', '$0.09'],
    ]);
    await page.getByRole('button', { name: 'Print' }).waitFor();
    // Printed, the statement stands alone: no top bar, banner or menus.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.topbar').isVisible()).toBe(false);
    expect(await banner.isVisible()).toBe(false);
    expect(await page.getByRole('table').isVisible()).toBe(true);
    await screenshot(page, 'runway-statement-print');
    await page.emulateMedia({ media: 'screen' });

    // The CSV download from Billing.
    await page.goto('/dashboard/billing');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^nodekeep-transactions-\d{4}-\d\d-\d\d\.csv$/);
    const csv = fs.readFileSync((await file.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('date_utc,description,amount_usd,balance_usd');
    expect(csv.slice(1, 4).map((l) => l.split(',').slice(1))).toEqual([
      ['Funds', '10.00', '10.00'],
      ['Correction', '-5.00', '5.00'],
      ['Correction', '-4.91', '0.09'],
    ]);
    await page.context().close();
  });
});
