import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { userAccount } from '../../src/server/billing/ledger';
import { creditDeposit } from '../../src/server/billing/deposit';
import { insertUser } from '../../src/server/auth/queries';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { at, Authenticator, browserSession, consoleNav, downloadText, logInLive, screenshot } from './browser';

// The console's Customers and Money pages in Chromium against the real server (built
// client in dist/client: run `npm run build` first): an operator finds a customer and
// credits them with a reason (the customer's open billing page follows live), creates
// gift codes and sees them listed, and reads both actions back on the Log page.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;
/** One authenticator for the operator across tests: a code's step is used once. */
let phone: Authenticator;

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'cust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
  phone = new Authenticator(operator.tfaSecret!);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.locator('.stat-label').getByText(label, { exact: true }) }).locator('.stat-value');
const nav = consoleNav;

describe('console Customers and Money in the browser', () => {
  it(
    'finds a customer, credits them with a reason (live on their billing page), creates gift codes, and reads it back in the log',
    { timeout: 120_000 },
    async () => {
      // The customer has the billing page open.
      const customerPage = await session.newPage();
      await logInLive(customerPage, customer);
      await customerPage.goto('/dashboard/billing');
      await stat(customerPage, 'Account balance').filter({ hasText: '$0.00' }).waitFor();

      const page = await session.signedIn(operator, phone);
      await page.goto('/console');
      await nav(page, 'Customers');
      await at(page, '/console/customers');
      // Before a search the page lists the newest customers; a search narrows it.
      await page.getByText('The newest customers:').waitFor();
      const operatorLink = page.getByRole('link', { name: operator.username, exact: true });
      await operatorLink.waitFor();
      await page.getByLabel('Username, email or id', { exact: true }).fill(customer.email.slice(0, 14));
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText(/^Matches for/).waitFor();
      await operatorLink.waitFor({ state: 'detached' });
      await page.getByRole('link', { name: customer.username, exact: true }).click();
      await at(page, `/console/customers/${customer.id}`);
      await page.getByRole('heading', { name: customer.username }).waitFor();
      await page.getByTestId('customer-balance').filter({ hasText: '$0.00' }).waitFor();

      // A reason is required: the button stays off without one.
      await page.getByLabel('Amount (USD)', { exact: true }).fill('12.50');
      expect(await page.getByRole('button', { name: 'Post adjustment' }).isDisabled()).toBe(true);
      await page.getByLabel('Reason', { exact: true }).fill('Sorry for the outage on Sunday');
      // A bad amount is said under its field; corrected, the message goes at once.
      const amount = page.getByLabel('Amount (USD)', { exact: true });
      await amount.fill('abc');
      await page.getByRole('button', { name: 'Post adjustment' }).click();
      const badAmount = page.getByText(/must be a dollar amount/).first();
      await badAmount.waitFor();
      await amount.fill('12.50');
      await badAmount.waitFor({ state: 'detached' });
      // A debit past the balance is refused before any dialog promises a negative balance.
      await amount.fill('-1000');
      await page.getByRole('button', { name: 'Post adjustment' }).click();
      await page.getByText(`${customer.username}'s balance ($0.00) is lower than the debit of $1000.00.`).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await amount.fill('12.50');
      const credited = () =>
        server.deps.db
          .selectFrom('ledger_transfers')
          .selectAll()
          .where('credit_account', '=', userAccount(customer.id))
          .execute();
      const doubleSubmit = () =>
        page
          .locator('form', { has: page.getByRole('button', { name: 'Post adjustment' }) })
          .evaluate((f: HTMLFormElement) => {
            f.requestSubmit();
            f.requestSubmit();
          });
      // Money moves only after the operator reads the amount and the balance it makes;
      // Cancel posts nothing.
      const ask = page.getByRole('dialog', { name: 'Add to the balance?' });
      await doubleSubmit();
      expect(await ask.getByTestId('confirm-effect').innerText()).toBe(
        `Add $12.50 to ${customer.username}'s balance (now $0.00 → $12.50).`,
      );
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(await credited()).toEqual([]);
      expect(await page.getByRole('dialog').count()).toBe(0);
      // A double submit (two submits before the first answer) asks once and posts one transfer.
      await doubleSubmit();
      await ask.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByText(`Done: ${customer.username}'s balance is now $12.50.`).waitFor();
      await page.getByTestId('customer-balance').filter({ hasText: '$12.50' }).waitFor();
      await page.getByRole('cell', { name: 'Sorry for the outage on Sunday' }).waitFor();
      const credits = await credited();
      expect(credits.map((t) => [t.amount, t.description])).toEqual([[12_500_000, 'Sorry for the outage on Sunday']]);

      // The customer's open billing page follows without a reload.
      await stat(customerPage, 'Account balance').filter({ hasText: '$12.50' }).waitFor();
      await customerPage.getByText('Sorry for the outage on Sunday').waitFor();
      await screenshot(page, 'console-customer');

      // Gift codes: made, shown once, listed by their last four characters.
      await nav(page, 'Money');
      await at(page, '/console/money');
      // Open debts (a card payment taken back): none here.
      await page.getByRole('heading', { name: 'Open debts' }).waitFor();
      await page.getByText('No customer owes anything.').waitFor();
      await page.getByLabel('Amount (USD)', { exact: true }).fill('5');
      await page.getByLabel('How many', { exact: true }).fill('3');
      await page.getByLabel('Valid through (UTC day)', { exact: true }).fill('2031-01-31');
      await page.getByRole('button', { name: 'Create codes' }).click();
      const shown = page.getByTestId('new-codes');
      await shown.waitFor();
      // Valid through the day the operator picked, said as that day (not "until 2031-02-01 00:00").
      await page.getByText(/, valid through 2031-01-31 UTC\. Copy them now/).waitFor();
      const codes = ((await shown.textContent()) ?? '').split('\n').filter(Boolean);
      expect(codes).toHaveLength(3);
      for (const c of codes) expect(c).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      const table = page.getByRole('table', { name: 'Gift codes' });
      for (const c of codes) await table.getByRole('cell', { name: `…${c.slice(-4)}`, exact: true }).waitFor();
      expect(await table.locator('tbody tr').count()).toBe(3);
      expect(await table.getByRole('cell', { name: 'through 2031-01-31 UTC', exact: true }).count()).toBe(3);
      await screenshot(page, 'console-money');

      // The CSV export: the list's columns, the codes' last four characters only.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      const csv = (await downloadText(download)).trim().split('\n');
      expect(csv[0]).toBe(
        'id,code_ends,amount_usd,batch,created_at,expires_at,state,redeemed_by,redeemed_at,revoked_at',
      );
      expect(csv).toHaveLength(4);
      for (const c of codes) {
        expect(
          csv.some(
            (l) => l.split(',')[1] === c.slice(-4) && l.split(',')[2] === '5.00' && l.split(',')[6] === 'unused',
          ),
        ).toBe(true);
        expect(csv.join('\n')).not.toContain(c);
      }

      // Revoke one; the customer cannot redeem it, but can redeem another.
      await page
        .getByRole('button', {
          name: `Revoke code ${await table
            .locator('tbody tr')
            .filter({ hasText: `…${codes[0].slice(-4)}` })
            .locator('td')
            .first()
            .textContent()}`,
        })
        .click();
      await table
        .locator('tbody tr')
        .filter({ hasText: `…${codes[0].slice(-4)}` })
        .getByText('revoked')
        .waitFor();

      // The log: both actions, by the operator, from the browser's address; never a code.
      await nav(page, 'Log');
      await at(page, '/console/log');
      const rows = page.locator('.console-log-table tbody tr');
      await rows.first().waitFor();
      const texts = await rows.allInnerTexts();
      for (const action of ['billing adjust', 'coupons create', 'coupons revoke']) {
        expect(
          texts.some((t) => t.includes(action) && t.includes(operator.username) && t.includes('127.0.0.1')),
          action,
        ).toBe(true);
      }
      expect(texts.filter((t) => t.includes('billing adjust'))).toHaveLength(1);
      for (const c of codes) expect(texts.join('\n')).not.toContain(c);
      await page.getByLabel('Action', { exact: true }).selectOption('billing adjust');
      await page.getByText('1 entry').waitFor();
      // Its details in words: dollars, not micro-dollars or JSON.
      const adjust = (await rows.allInnerTexts())[0];
      expect(adjust).toContain('reason Sorry for the outage on Sunday');
      expect(adjust).toMatch(/amount \$12\.50/);
      expect(adjust).not.toMatch(/12500000|[{}"]/);
    },
  );
  it(
    'approves and refuses referral bonuses held for approval on the Money page, each logged',
    { timeout: 120_000 },
    async () => {
      // A referrer with two referred users whose card deposits Stripe could not identify: both wait.
      const referrer = await freshUser(server.deps, { prefix: 'refr' });
      const referred: number[] = [];
      for (const n of [1, 2]) {
        const name = `held${n}x${Date.now().toString(36)}`;
        const id = await insertUser(server.deps.db, {
          username: name,
          email: `${name}@example.test`,
          password_hash: 'x',
          referrer: null,
          referrer_id: referrer.id,
          room_id: `r-${name}`,
          qr_key: `q-${name}`,
          registered_ip: `10.66.0.${n}`,
        });
        await server.deps.db.transaction().execute((trx) =>
          creditDeposit(trx, {
            userId: id,
            amount: 10_000_000,
            via: 'card',
            idempotencyKey: `e2e-held-${id}`,
            description: 'Card payment',
            card: { fingerprint: null },
          }),
        );
        referred.push(id);
      }
      const status = async (id: number) =>
        (
          await server.deps.db
            .selectFrom('referral_bonuses')
            .select('status')
            .where('referred_user_id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      expect([await status(referred[0]), await status(referred[1])]).toEqual([
        'awaiting_approval',
        'awaiting_approval',
      ]);

      const page = await session.signedIn(operator, phone);
      await page.goto('/console');
      await nav(page, 'Money');
      await at(page, '/console/money');
      const table = page.getByRole('table', { name: 'Referral bonuses to approve' });
      await table.locator('tbody tr').nth(1).waitFor();
      expect(await table.locator('tbody tr').count()).toBe(2);
      await table.getByText(referrer.username).first().waitFor();
      await screenshot(page, 'console-referral-bonuses');
      const [first, second] = await table.locator('tbody tr td:nth-child(3)').allInnerTexts();
      await page.getByRole('button', { name: `Approve the bonus of ${referrer.username} for ${first}` }).click();
      await table.locator('tbody tr').filter({ hasText: first }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: `Refuse the bonus of ${referrer.username} for ${second}` }).click();
      await page.getByText('No referral bonuses wait for approval.').waitFor();
      expect([await status(referred[0]), await status(referred[1])]).toEqual(['pending', 'refused']);

      await nav(page, 'Log');
      await at(page, '/console/log');
      const rows = page.locator('.console-log-table tbody tr');
      await rows.filter({ hasText: 'referral bonus refuse' }).waitFor();
      const texts = await rows.allInnerTexts();
      for (const action of ['referral bonus approve', 'referral bonus refuse'])
        expect(
          texts.filter((t) => t.includes(action) && t.includes(operator.username)),
          action,
        ).toHaveLength(1);
    },
  );
  it('shows balances in cents and the ledger entry exactly', { timeout: 120_000 }, async () => {
    const odd = await freshUser(server.deps, { prefix: 'cents' });
    await server.deps.db.transaction().execute((trx) =>
      creditDeposit(trx, {
        userId: odd.id,
        amount: 269_368,
        via: 'card',
        idempotencyKey: `e2e-cents-${odd.id}`,
        description: 'Card payment',
        card: { fingerprint: null },
      }),
    );
    const page = await session.signedIn(operator, phone);
    await page.goto('/console');
    await nav(page, 'Customers');
    await at(page, '/console/customers');
    await page.getByLabel('Username, email or id', { exact: true }).fill(odd.username);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator('tr', { has: page.getByRole('link', { name: odd.username, exact: true }) });
    await row.getByRole('cell', { name: '$0.27', exact: true }).waitFor();
    await row.getByRole('link', { name: odd.username, exact: true }).click();
    await at(page, `/console/customers/${odd.id}`);
    await page
      .getByTestId('customer-balance')
      .filter({ hasText: /^\$0\.27$/ })
      .waitFor();
    // The single entry keeps its exact amount: it is what was booked.
    await page.getByRole('cell', { name: '$0.269368', exact: true }).waitFor();
    await page.getByText(/^Balance \$0\.27, \d+ transfers?\.$/).waitFor();
  });
});
