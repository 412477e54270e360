import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findUserByLogin } from '../../src/server/auth/queries';
import { creditDeposit } from '../../src/server/billing/deposit';
import { BONUS_HOLD_MS } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { runCli } from '../../src/server/cli/main';
import { PLATFORM, postTransfer, userAccount, type TransferInput } from '../../src/server/billing/ledger';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';
import { at, browserSession, fitsViewport, logInLive, screenshot } from './browser';

// The billing and affiliate pages in Chromium against the real server; money moves
// through the real ledger (postTransfer, creditDeposit) in the server's own database,
// and reaches the open pages through the live events it sends. `npm run build` first.

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

/** Writes one transfer through the ledger (as any writer of the platform does) and delivers its events at once. */
async function transfer(t: Omit<TransferInput, 'kind'> & Partial<Pick<TransferInput, 'kind'>>) {
  await server.deps.db.transaction().execute((trx) => postTransfer(trx, { kind: 'adjustment', ...t }));
  await server.deps.hub.poke();
}

const credit = (u: FreshUser, key: string, usd: number, description: string) =>
  transfer({
    idempotencyKey: `${key}-${u.id}`,
    debit: PLATFORM.adjustments,
    credit: userAccount(u.id),
    amount: Math.round(usd * 1_000_000),
    description,
  });

const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.locator('.stat-label').getByText(label, { exact: true }) }).locator('.stat-value');
const rows = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');
const cellsOf = async (page: Page, table: string) =>
  (await rows(page, table).all()).map(async (r) => (await r.locator('td').allTextContents()).slice(1));

async function tableCells(page: Page, table: string): Promise<string[][]> {
  return Promise.all(await cellsOf(page, table));
}

async function expectText(locator: ReturnType<Page['locator']>, text: string) {
  await locator.filter({ hasText: text }).first().waitFor();
  expect(await locator.first().textContent()).toBe(text);
}

describe('the billing page', () => {
  it(
    'shows the ledger: stats, pending deposits, history 5 per page, and follows transfers live',
    { timeout: 120_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'bill' });
      for (let i = 1; i <= 7; i++) await credit(user, `c${i}`, i, `Credit ${i}`);
      const page = await session.newPage();
      await logInLive(page, user);
      await expectText(page.getByTestId('topbar-balance'), '$28.00');
      await page.goto('/dashboard/billing');
      await at(page, '/dashboard/billing');

      await expectText(stat(page, 'Account balance'), '$28.00');
      expect(await stat(page, 'Total nodes').textContent()).toBe('0');
      expect(await stat(page, 'Monthly expenses').textContent()).toBe('$0.00');
      await page.getByText('No deposits waiting for confirmations.').waitFor();

      // Newest first, 5 per page, the generic pager.
      await rows(page, 'Transaction history').nth(4).waitFor();
      expect(await tableCells(page, 'Transaction history')).toEqual(
        [5, 4, 3, 2, 1].map((n) => [`Credit ${n + 2}`, `$${n + 2}.00`]),
      );
      // Times are the server's UTC, and say so.
      expect(await rows(page, 'Transaction history').first().locator('td').first().innerText()).toMatch(
        /^\d{4}-\d\d-\d\d\s\d\d:\d\d UTC$/,
      );
      const pager = page.getByRole('navigation', { name: 'Transaction history pages' });
      expect(await pager.getByRole('button', { name: /^Page \d$/ }).allTextContents()).toEqual(['1', '2']);
      await pager.getByRole('button', { name: 'Page 2' }).click();
      await page.getByRole('cell', { name: 'Credit 1', exact: true }).waitFor();
      expect(await tableCells(page, 'Transaction history')).toEqual([
        ['Credit 2', '$2.00'],
        ['Credit 1', '$1.00'],
      ]);
      expect(await pager.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled')).toBe('true');
      // By keyboard: Enter on Previous goes to the first page, where Previous is unavailable yet keeps the focus.
      await pager.getByRole('button', { name: 'Previous' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('cell', { name: 'Credit 7', exact: true }).waitFor();
      expect(await pager.getByRole('button', { name: 'Previous' }).getAttribute('aria-disabled')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Previous');
      await page.keyboard.press('Enter');
      expect(await tableCells(page, 'Transaction history')).toHaveLength(5);
      await page.getByRole('cell', { name: 'Credit 7', exact: true }).waitFor();

      // The funding tabs.
      for (const tab of ['Stripe', 'Gift Code', 'Crypto']) {
        await page.getByRole('tab', { name: tab }).click();
        expect(await page.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
        await page.getByRole('tabpanel').waitFor();
      }
      // With no deposit currency and card payments off (this server has neither), the Crypto
      // tab names only the way that works.
      await page
        .getByRole('tabpanel')
        .getByText(
          'No crypto currency is accepted for deposits at the moment. Redeem a gift code in the Gift Code tab, or contact support.',
          { exact: true },
        )
        .waitFor();

      // A transfer while the page is open: stats, history and top bar follow without a reload.
      const navigations: string[] = [];
      page.on('framenavigated', (f) => navigations.push(f.url()));
      await credit(user, 'live', 2.5, 'Live credit');
      await expectText(stat(page, 'Account balance'), '$30.50');
      await expectText(page.getByTestId('topbar-balance'), '$30.50');
      await page.getByRole('cell', { name: 'Live credit', exact: true }).waitFor();
      expect((await tableCells(page, 'Transaction history'))[0]).toEqual(['Live credit', '$2.50']);
      // A debit keeps its exact amount ($0.063 is not rounded to cents) and its sign.
      await transfer({
        idempotencyKey: `fee-${user.id}`,
        debit: userAccount(user.id),
        credit: PLATFORM.revenue,
        amount: 63_000,
        kind: 'daily_charge',
        description: 'Daily charge',
      });
      await page.getByRole('cell', { name: 'Daily charge', exact: true }).waitFor();
      expect((await tableCells(page, 'Transaction history'))[0]).toEqual(['Daily charge', '-$0.063']);
      await expectText(stat(page, 'Account balance'), '$30.44');
      await expectText(page.getByTestId('topbar-balance'), '$30.44');
      expect(await pager.getByRole('button', { name: /^Page \d$/ }).allTextContents()).toEqual(['1', '2']);
      expect(navigations).toEqual([]);
      await screenshot(page, 'billing');
      await page.context().close();
    },
  );

  it('shows an empty history to a new user, and fits a 390 px wide screen', async () => {
    const user = await freshUser(server.deps, { prefix: 'billnew' });
    const page = await session.newPage(390);
    await logInLive(page, user);
    await page.goto('/dashboard/billing');
    await page.getByRole('heading', { name: 'No transactions yet' }).waitFor();
    expect(await stat(page, 'Account balance').textContent()).toBe('$0.00');
    expect(await fitsViewport(page)).toBe(true);
    for (let i = 1; i <= 6; i++)
      await credit(user, `n${i}`, 1000 + i, `A rather long description of credit number ${i}`);
    await rows(page, 'Transaction history').nth(4).waitFor();
    expect(await fitsViewport(page)).toBe(true);
    // All three columns fit: the table needs no sideways scrolling.
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);
    await screenshot(page, 'billing-390');
    await page.context().close();
  });
  it('fits a 320 px wide screen: all payment tabs, and the history with a long node name and exact amounts', async () => {
    const user = await freshUser(server.deps, { prefix: 'bill320' });
    await credit(user, 'w1', 1234.5, 'Gift code');
    await credit(user, 'w2', 10_000, 'Card payment');
    await transfer({
      idempotencyKey: `w3-${user.id}`,
      debit: userAccount(user.id),
      credit: PLATFORM.revenue,
      amount: 13_147,
      kind: 'daily_charge',
      description: 'Initial Charge: dash-80e5e72355 (2026-11-23)',
    });
    const page = await session.newPage(320);
    await logInLive(page, user);
    await page.goto('/dashboard/billing');
    await rows(page, 'Transaction history').nth(2).waitFor();
    expect(await fitsViewport(page)).toBe(true);
    // The table needs no sideways scrolling: Date, Description and Amount all show.
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);
    const scroller = page.getByRole('table', { name: 'Transaction history' }).locator('xpath=..');
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Every payment tab lies inside its tab list (none cut at the card's edge).
    const list = await page.getByRole('tablist', { name: 'Payment methods' }).boundingBox();
    for (const name of ['Crypto', 'Stripe', 'Gift Code']) {
      const tab = await page.getByRole('tab', { name, exact: true }).boundingBox();
      expect(tab!.x + tab!.width, name).toBeLessThanOrEqual(list!.x + list!.width + 0.5);
    }
    await screenshot(page, 'billing-320');
    await page.context().close();
  });

  it('says when the history cannot be loaded, and loads it on Try again', async () => {
    const user = await freshUser(server.deps, { prefix: 'billerr' });
    await credit(user, 'e1', 4, 'Credit before the outage');
    const page = await session.newPage();
    await logInLive(page, user);
    // The server fails every call that carries the history (a batch fails as a whole).
    const failing = (url: URL) =>
      url.pathname.startsWith('/trpc/') && decodeURIComponent(url.pathname).includes('billing.get_transactions');
    await page.route(failing, (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'down' }));
    await page.goto('/dashboard/billing');
    const alert = page.getByRole('alert').filter({ hasText: 'The transaction history could not be loaded' });
    await alert.waitFor();
    await page.unroute(failing);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('cell', { name: 'Credit before the outage', exact: true }).waitFor();
    // The balance travelled in the same batch when it did: it has its own Try again.
    const balanceAlert = page.getByRole('alert').filter({ hasText: 'Your balance could not be loaded' });
    if (await balanceAlert.count()) {
      expect(await stat(page, 'Account balance').textContent()).toBe('--');
      await balanceAlert.getByRole('button', { name: 'Try again' }).click();
    }
    await expectText(stat(page, 'Account balance'), '$4.00');
    await page.context().close();
  });

  it('lists a pending deposit in its own coin with its confirmations, never as dollars', async () => {
    // The deposit as the watcher records it (test/peers/deposits-litecoind.test.ts sees it
    // come from a real daemon): 0.15 LTC, 2 of 6 confirmations. No daemon answers here.
    const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
      "m/84'/1'/0'",
    ).publicExtendedKey;
    const added = await runCli(
      [
        'deposits',
        'add',
        'ltcpend',
        '--label',
        'Litecoin',
        '--ticker',
        'LTC',
        '--confirmations',
        '6',
        '--xpub',
        tpub,
        '--address',
        'wpkh:rltc',
        '--rpc-url',
        'http://127.0.0.1:9',
      ],
      { DATA_DIR: server.dataDir },
      { out: () => {} },
    );
    expect(added).toBe(0);
    const user = await freshUser(server.deps, { prefix: 'billpend' });
    const now = Date.now();
    await server.deps.db
      .insertInto('deposits')
      .values({
        currency_id: 'ltcpend',
        txid: 'ab'.repeat(32),
        vout: 0,
        user_id: user.id,
        address: 'rltc1qpendingexample',
        amount: '15000000',
        confirmations: 2,
        state: 'pending',
        usd_micros: null,
        seen_at: now,
        updated_at: now,
      })
      .execute();
    const page = await session.newPage();
    await logInLive(page, user);
    await page.goto('/dashboard/billing');
    const row = page.getByTestId('pending-deposit');
    await row.waitFor();
    // Its USD value is known only when it is credited (at that time's price).
    expect(await row.locator('.pending-what').innerText()).toBe('0.15 Litecoin');
    expect(await row.locator('.pending-confirmations').innerText()).toBe('2 / 6 confirmations');
    expect(await row.innerText()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await page.context().close();
  });
});

describe('the affiliate page', () => {
  it(
    'gives the referral link with copy; a user registered through it and their first deposit show in the badges and history',
    { timeout: 120_000 },
    async () => {
      const referrer = await freshUser(server.deps, { prefix: 'affil' });
      const page = await session.newPage();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await logInLive(page, referrer);
      await page.goto('/dashboard/affiliate');
      const link = `${server.url}/ref/${referrer.username}`;
      const shown = page.getByLabel('Your referral link', { exact: true });
      await expectText(shown, link);
      await page.getByRole('button', { name: 'Copy Your referral link' }).click();
      await page.getByRole('button', { name: 'Copy Your referral link' }).filter({ hasText: 'Copied!' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      // The totals come from their own query, after the link: wait for it, the rest came with it.
      await expectText(stat(page, 'Referrals'), '0');
      expect(await stat(page, 'Earnings').textContent()).toBe('$0.00');
      expect(await stat(page, 'MNs of referrals').textContent()).toBe('0');
      await page.getByRole('heading', { name: 'No referrals yet' }).waitFor();

      // A visitor follows the link, then registers.
      const guest = await session.newPage();
      await guest.goto(`/ref/${referrer.username}`);
      await at(guest, '/');
      await guest.goto('/register');
      const name = `ref${Date.now().toString(36)}`;
      await guest.getByLabel('Username', { exact: true }).fill(name);
      await guest.getByLabel('Email', { exact: true }).fill(`${name}@example.test`);
      await guest.getByLabel('Password', { exact: true }).fill('referred-secret-1');
      await guest.getByLabel('Confirm password', { exact: true }).fill('referred-secret-1');
      await guest.getByRole('button', { name: 'Register' }).click();
      await guest.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      await guest.context().close();
      const referred = (await findUserByLogin(server.deps.db, name))!;
      expect(referred.referrer_id).toBe(referrer.id);

      // The sign-up sends the referrer no event: it shows after a reload.
      await page.reload();
      await expectText(stat(page, 'Referrals'), '1');
      await page.getByRole('cell', { name: `${name} signed up`, exact: true }).waitFor();

      // One browser here: the visitor registered from the referrer's address, which pays no
      // bonus (a self-referral). As if they had come from another machine:
      await server.deps.db
        .updateTable('users')
        .set({ registered_ip: '10.77.7.7' })
        .where('id', '=', referred.id)
        .execute();
      // The first deposit of $10 earns the bonus: pending for 14 days, shown live.
      await server.deps.db.transaction().execute((trx) =>
        creditDeposit(trx, {
          userId: referred.id,
          amount: 10_000_000,
          via: 'crypto',
          idempotencyKey: `e2e-dep-${referred.id}`,
          description: 'Deposit',
        }),
      );
      await server.deps.hub.poke();
      await expectText(stat(page, 'Pending earnings'), '$10.00');
      expect(await stat(page, 'Earnings').textContent()).toBe('$0.00');
      await page
        .getByRole('cell', {
          name: new RegExp(
            `^Referral bonus: ${name}'s first deposit \\(pending, spendable from \\d{4}-\\d\\d-\\d\\d\\)$`,
          ),
        })
        .waitFor();
      await screenshot(page, 'affiliate-pending');
      // The hold over (the job, run as at that time): paid to the balance; badges, history and top bar follow live.
      expect(await matureReferralBonuses(server.deps, Date.now() + BONUS_HOLD_MS + 60_000)).toBe(1);
      await expectText(stat(page, 'Earnings'), '$10.00');
      await expectText(stat(page, 'Pending earnings'), '$0.00');
      await expectText(page.getByTestId('topbar-balance'), '$10.00');
      await page.getByRole('cell', { name: `Referral bonus: ${name}'s first deposit`, exact: true }).waitFor();
      expect(await tableCells(page, 'Referral history')).toEqual([
        [`Referral bonus: ${name}'s first deposit`, '$10.00'],
        [`${name} signed up`, '$0.00'],
      ]);
      await screenshot(page, 'affiliate');
      await page.context().close();
    },
  );

  it('fits 390 and 320 px wide screens', async () => {
    const user = await freshUser(server.deps, { prefix: 'affil390' });
    for (const width of [390, 320]) {
      const page = await session.newPage(width);
      await logInLive(page, user);
      await page.goto('/dashboard/affiliate');
      await page.getByRole('heading', { name: 'No referrals yet' }).waitFor();
      expect(await fitsViewport(page), String(width)).toBe(true);
      await screenshot(page, `affiliate-${width}`);
      await page.context().close();
    }
  });
});

describe('the portfolio', () => {
  it("follows the ledger live: a node's charge updates Monthly expenses and the top bar without a reload", async () => {
    const user = await freshUser(server.deps, { prefix: 'port' });
    await credit(user, 'fund', 20, 'Funds');
    const page = await session.newPage();
    await logInLive(page, user);
    await page.goto('/dashboard/portfolio');
    await page.getByRole('heading', { name: "You don't have any masternodes" }).waitFor();
    expect(await stat(page, 'Monthly expenses').textContent()).toBe('$0.00');
    // A node written without an event of its own; its charge is what the page hears of.
    await insertTestNode(server.deps.db, {
      mn_id: `pivx-port${user.id}`,
      user_id: user.id,
      coin_id: 'pivx',
      hosting_price: 100_000,
      status: 'running',
    });
    await transfer({
      idempotencyKey: `initial-${user.id}`,
      debit: userAccount(user.id),
      credit: PLATFORM.revenue,
      amount: 50_000,
      kind: 'initial_charge',
      description: 'Initial Charge',
    });
    await expectText(stat(page, 'Monthly expenses'), '$3.00');
    await expectText(page.getByTestId('topbar-balance'), '$19.95');
    await page.context().close();
  });
});
