import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { signedEvent, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';

// The Stripe and Gift Code tabs of /dashboard/billing in Chromium, against the real server
// and a FAKE of Stripe's HTTP API (test/support/fake-stripe.ts). Run `npm run build` first.

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_browser',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_browser',
  STRIPE_WEBHOOK_SECRET: 'whsec_browsertest',
};

let stripe: FakeStripe;
let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY });
  server = await startTestServer({ ...KEYS, STRIPE_API_BASE: stripe.url });
  await session.launch();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await stripe?.close();
});

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).locator('.toast', { hasText: text });

/** Opens the billing page's tab and answers its panel. */
async function tab(page: Page, name: 'Stripe' | 'Gift Code'): Promise<Locator> {
  await page.getByRole('tab', { name, exact: true }).click();
  return page.getByRole('tabpanel', { name, exact: true });
}

describe('Billing: Stripe tab', () => {
  it(
    'pays a preset or another amount on the hosted page, resumes and cancels pending payments, shows provider errors',
    { timeout: 120_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'cardpage', login: false });
      const page = await session.newPage();
      await logInLive(page, user);
      await page.goto('/dashboard/billing');
      let card = await tab(page, 'Stripe');

      // $10 is chosen at first; Other needs a number of at least $5 with two decimals at most.
      expect(await card.getByRole('radio', { name: '$10', exact: true }).isChecked()).toBe(true);
      for (const n of ['$25', '$50', '$100', '$250', '$500'])
        await card.getByRole('radio', { name: n, exact: true }).waitFor();
      await card.getByRole('radio', { name: 'Other', exact: true }).check();
      await card.getByRole('button', { name: 'Pay' }).click();
      await card.getByText('Amount required.').waitFor();
      await card.getByLabel('Amount (USD)').fill('4');
      await card.getByRole('button', { name: 'Pay' }).click();
      await card.getByText('The minimum card payment is $5.').waitFor();
      expect(stripe.sessions.size).toBe(0);
      await screenshot(page, 'billing-card-tab', { fullPage: false });

      // Pay: off to the provider's hosted page for exactly that amount.
      await card.getByLabel('Amount (USD)').fill('12.50');
      await card.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      const first = page.url().split('/pay/')[1];
      expect(stripe.sessions.get(first)?.amount_total).toBe(1250);
      await page.getByText('Fake Stripe checkout 12.5').waitFor();

      // Back on Billing: the pending payment is listed; Resume goes back to its page.
      await page.goto('/dashboard/billing?card=cancelled');
      card = await tab(page, 'Stripe');
      await card.getByText('The payment was not completed.').waitFor();
      const row = card.getByTestId('card-session');
      await row.getByText('$12.50').waitFor();
      await row.getByRole('button', { name: 'Resume' }).click();
      await page.waitForURL(`${stripe.url}/pay/${first}`);

      // A preset, then the first one expires at the provider: resuming it says so in a toast.
      await page.goto('/dashboard/billing');
      card = await tab(page, 'Stripe');
      await card.getByRole('radio', { name: '$25', exact: true }).check();
      await card.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      const second = page.url().split('/pay/')[1];
      expect(stripe.sessions.get(second)?.amount_total).toBe(2500);
      stripe.expire(first);
      await page.goto('/dashboard/billing');
      card = await tab(page, 'Stripe');
      await card
        .getByTestId('card-session')
        .filter({ hasText: '$12.50' })
        .getByRole('button', { name: 'Resume' })
        .click();
      await toast(page, 'Something went wrong').waitFor();
      await card.getByTestId('card-session').filter({ hasText: '$12.50' }).waitFor({ state: 'detached' });

      // Cancel the other one.
      // Each row's buttons name their payment (a screen reader lists them out of their rows).
      const cancelButton = card.getByRole('button', {
        name: /^Cancel \$25\.00, started \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
      });
      expect(await card.getByRole('button', { name: /^Resume \$25\.00, started / }).count()).toBe(1);
      await cancelButton.click();
      await toast(page, 'The payment was cancelled.').waitFor();
      await card.getByTestId('card-session').waitFor({ state: 'detached' });
      expect(stripe.sessions.get(second)?.status).toBe('expired');

      // The provider fails: its error in a toast, and the page stays; a keyboard user is still on Pay.
      stripe.failNext(2, 'status500');
      await card.getByRole('button', { name: 'Pay' }).focus();
      await page.keyboard.press('Enter');
      await toast(page, 'The card payment provider did not answer. Nothing was charged').waitFor();
      expect(page.url()).toBe(`${server.url}/dashboard/billing`);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pay');

      // Other as people write amounts: "$1,000" (a dollar sign, US grouping) is $1,000.
      await card.getByRole('radio', { name: 'Other', exact: true }).check();
      await card.getByLabel('Amount (USD)').fill('$1,000');
      await card.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      expect(stripe.sessions.get(page.url().split('/pay/')[1])?.amount_total).toBe(100_000);
      await page.goto('/dashboard/billing');
      card = await tab(page, 'Stripe');

      // A payment confirmed by the signed webhook reaches the balance on the page, live.
      await card.getByRole('radio', { name: '$50', exact: true }).check();
      await card.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      const third = page.url().split('/pay/')[1];
      await page.goto('/dashboard/billing?card=success');
      await page.getByText('Thank you. Your payment is added to your balance').waitFor();
      // Said once: the address bar is cleaned, so a reload does not thank again.
      await page.waitForURL(`${server.url}/dashboard/billing`);
      const ev = signedEvent('checkout.session.completed', stripe.complete(third), KEYS.STRIPE_WEBHOOK_SECRET);
      const hook = await fetch(`${server.url}/api/stripe_webhook`, {
        method: 'POST',
        headers: { 'stripe-signature': ev.signature },
        body: ev.payload,
      });
      expect(hook.status).toBe(200);
      await page.getByRole('region', { name: 'Billing totals' }).getByText('$50.00').waitFor();
      await page.reload();
      await page.getByRole('region', { name: 'Billing totals' }).getByText('$50.00').waitFor();
      expect(await page.getByText('Thank you. Your payment is added to your balance').count()).toBe(0);
    },
  );

  it('says card payments are off when no Stripe keys are configured', { timeout: 60_000 }, async () => {
    const off = await startTestServer();
    try {
      const user = await freshUser(off.deps, { prefix: 'nocard', login: false });
      const page = await session.newPage();
      // The page's base URL is the other server's: log in here by absolute URLs.
      await page.goto(`${off.url}/login`);
      await page.getByLabel('Username or email', { exact: true }).fill(user.username);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${off.url}/dashboard`);
      await page.goto(`${off.url}/dashboard/billing`);
      const card = await tab(page, 'Stripe');
      await card.getByText('Card payments are not available at the moment.').waitFor();
      expect(await card.getByRole('button', { name: 'Pay' }).count()).toBe(0);
    } finally {
      await stopTestServer(off);
    }
  });
});

describe('Billing: Gift Code tab', () => {
  it('requires a code, shows the server messages as given, and credits once', { timeout: 90_000 }, async () => {
    const out: string[] = [];
    expect(
      await runCli(
        ['coupons', 'create', '--amount', '5', '--count', '1', '--expires', '2099-12-31'],
        { DATA_DIR: server.dataDir },
        { out: (l) => out.push(l) },
      ),
    ).toBe(0);
    const code = out.find((l) => /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(l))!;
    const user = await freshUser(server.deps, { prefix: 'giftpage', login: false });
    const page = await session.newPage();
    await logInLive(page, user);
    await page.goto('/dashboard/billing');
    const gift = await tab(page, 'Gift Code');
    await gift.getByRole('button', { name: 'Redeem' }).click();
    await gift.getByText('Gift code required.').waitFor();
    await gift.getByRole('textbox', { name: 'Gift code' }).fill('NOPE-NOPE-NOPE-NOPE');
    await gift.getByRole('button', { name: 'Redeem' }).click();
    await gift.getByText('Invalid gift code.').waitFor();
    await gift.getByRole('textbox', { name: 'Gift code' }).fill(code.toLowerCase());
    await gift.getByRole('button', { name: 'Redeem' }).click();
    await gift.getByText('Gift code redeemed: $5.00 was added to your balance.').waitFor();
    await page.getByRole('region', { name: 'Billing totals' }).getByText('$5.00').waitFor();
    await screenshot(page, 'billing-gift-code', { fullPage: false });
    await gift.getByRole('textbox', { name: 'Gift code' }).fill(code);
    await gift.getByRole('button', { name: 'Redeem' }).click();
    await gift.getByText('This gift code was already used.').waitFor();

    // A large code reads with US grouping, like the balance beside it.
    out.length = 0;
    expect(
      await runCli(
        ['coupons', 'create', '--amount', '1234.5', '--count', '1', '--expires', '2099-12-31'],
        { DATA_DIR: server.dataDir },
        { out: (l) => out.push(l) },
      ),
    ).toBe(0);
    const big = out.find((l) => /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(l))!;
    await gift.getByRole('textbox', { name: 'Gift code' }).fill(big);
    await gift.getByRole('button', { name: 'Redeem' }).click();
    await gift.getByText('Gift code redeemed: $1,234.50 was added to your balance.').waitFor();
    await page.getByRole('region', { name: 'Billing totals' }).getByText('$1,239.50').waitFor();
  });
});
