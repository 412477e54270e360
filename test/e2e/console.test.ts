import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { CONSOLE_NEEDS_2FA } from '../../src/shared/console';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, newUserInput, type FreshUser } from '../support/users';
import { at, Authenticator, browserSession, logInLive, logInWithCode, screenshot } from './browser';

// The operator console's foundation in Chromium against the real server (built client in
// dist/client: run `npm run build` first): who may open it, an operator logging in with
// TOTP, the Settings page acting on customers' open tabs, and the Log reading it back.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let operatorNo2fa: FreshUser;
let customer: FreshUser;

async function cli(...args: string[]) {
  expect(await runCli(args, { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(0);
}

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  operatorNo2fa = await freshUser(server.deps, { prefix: 'op-no2fa' });
  customer = await freshUser(server.deps, { prefix: 'cust' });
  await cli('users', 'promote', operator.username);
  await cli('users', 'promote', operatorNo2fa.username);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

/** The console's own chunk files the page fetched (customers must fetch none). */
function consoleChunks(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const m = /\/assets\/((?:Console|Overview|Log)-[\w-]+\.js)$/.exec(r.url());
    if (m) seen.push(m[1]);
  });
  return seen;
}

async function expect404(page: Page) {
  await at(page, '/404');
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
}

describe('operator console in the browser', () => {
  it('shows guests and customers the ordinary 404 page and never loads the console for them', async () => {
    const guest = await session.newPage();
    const guestChunks = consoleChunks(guest);
    await guest.goto('/console/settings');
    await expect404(guest);

    const page = await session.newPage();
    const chunks = consoleChunks(page);
    await logInLive(page, customer);
    await page.goto('/console');
    await expect404(page);
    await page.goto('/console/log');
    await expect404(page);
    expect([...guestChunks, ...chunks]).toEqual([]);
  });

  it('tells an operator without 2FA how to turn it on', async () => {
    const page = await session.newPage();
    const chunks = consoleChunks(page);
    await logInLive(page, operatorNo2fa);
    await page.goto('/console');
    await page.getByText(CONSOLE_NEEDS_2FA).waitFor();
    await page.getByRole('link', { name: 'Open Settings' }).click();
    await at(page, '/dashboard/settings');
    expect(chunks).toEqual([]);
  });

  it("lets an operator with TOTP 2FA run maintenance, the banner and sign-up, live on customers' tabs, and reads it all back in the log", async () => {
    // A customer with the dashboard open.
    const customerPage = await session.newPage();
    await logInLive(customerPage, customer);

    const page = await session.newPage();
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    await page.goto('/console');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText('Revenue this month').waitFor();
    await page.getByRole('img', { name: 'Hosted nodes over the last 30 days' }).waitFor();
    for (const name of ['Overview', 'Fleet', 'Catalog', 'Customers', 'Money', 'Settings', 'Log', 'Support']) {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).waitFor();
    }
    await screenshot(page, 'console-overview');

    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Settings', exact: true })
      .click();
    await at(page, '/console/settings');

    // The banner: a bad link is refused with its reason, then a good one shows on the customer's tab without a reload.
    await page.getByLabel('Banner text', { exact: true }).fill('Planned upgrade on Sunday 10:00 UTC');
    await page.getByLabel('Banner link', { exact: true }).fill('javascript:alert(1)');
    await page.getByLabel('Banner colour', { exact: true }).selectOption('warning');
    await page.getByRole('button', { name: 'Show banner' }).click();
    await page
      .getByRole('alert')
      .getByText(/banner\.link: must be empty, a path/)
      .waitFor();
    await page.getByLabel('Banner link', { exact: true }).fill('/dashboard/billing');
    await page.getByRole('button', { name: 'Show banner' }).click();
    await page.getByText('The banner is shown to every customer.').waitFor();
    const banner = customerPage
      .locator('.banner-warning')
      .getByRole('link', { name: 'Planned upgrade on Sunday 10:00 UTC' });
    await banner.waitFor();
    expect(await banner.getAttribute('href')).toBe('/dashboard/billing');
    await screenshot(customerPage, 'console-customer-banner', { fullPage: false });

    // Maintenance: the customer's tab switches at once; the console keeps working and switches it off.
    // Switching it on stops every customer: asked first; Cancel changes nothing.
    const settingsRow = () => server.deps.db.selectFrom('settings').selectAll().execute();
    const before = JSON.stringify(await settingsRow());
    const askMaintenance = page.getByRole('dialog', { name: 'Switch maintenance on?' });
    await page.getByRole('button', { name: 'Switch maintenance on' }).click();
    await askMaintenance.getByText('their nodes keep running', { exact: false }).waitFor();
    await askMaintenance.getByRole('button', { name: 'Cancel' }).click();
    await askMaintenance.waitFor({ state: 'detached' });
    expect(await page.getByText('Maintenance is off.', { exact: false }).count()).toBe(1);
    expect(JSON.stringify(await settingsRow())).toBe(before);
    await page.getByRole('button', { name: 'Switch maintenance on' }).click();
    await askMaintenance.getByRole('button', { name: 'Switch maintenance on' }).click();
    await page.getByText('Maintenance is on.', { exact: false }).waitFor();
    await at(customerPage, '/maintenance');
    await customerPage.getByRole('heading', { name: "We're just tuning up a few things." }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Switch maintenance off' }).click();
    await page.getByRole('button', { name: 'Switch maintenance on' }).waitFor();
    await at(customerPage, '/dashboard');

    // Sign-up closed: the register form says so; open again, it works.
    const askSignup = page.getByRole('dialog', { name: 'Close sign-up?' });
    const beforeSignup = JSON.stringify(await settingsRow());
    await page.getByRole('button', { name: 'Close sign-up' }).click();
    await askSignup
      .getByText('Registration is refused with a message until you open sign-up again', { exact: false })
      .waitFor();
    await askSignup.getByRole('button', { name: 'Cancel' }).click();
    await askSignup.waitFor({ state: 'detached' });
    expect(JSON.stringify(await settingsRow())).toBe(beforeSignup);
    await page.getByRole('button', { name: 'Close sign-up' }).click();
    await askSignup.getByRole('button', { name: 'Close sign-up' }).click();
    await page.getByRole('button', { name: 'Open sign-up' }).waitFor();
    const visitor = await session.newPage();
    const input = newUserInput('closed');
    await visitor.goto('/register');
    await visitor.getByLabel('Username', { exact: true }).fill(input.username);
    await visitor.getByLabel('Email', { exact: true }).fill(input.email);
    await visitor.getByLabel('Password', { exact: true }).fill(input.password);
    await visitor.getByLabel('Confirm password', { exact: true }).fill(input.password);
    await visitor.getByRole('button', { name: 'Register' }).click();
    await visitor.getByText('Sign-up is closed at the moment. Please check back later.').waitFor();
    await page.getByRole('button', { name: 'Open sign-up' }).click();
    await page.getByRole('button', { name: 'Close sign-up' }).waitFor();

    // Remove the banner: gone from the customer's tab.
    await page.getByRole('button', { name: 'Remove banner' }).click();
    await page.getByText('The banner is removed.').waitFor();
    await banner.waitFor({ state: 'detached' });

    // The log: every action above, with who and from where; filtered by action.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Log', exact: true }).click();
    await at(page, '/console/log');
    const rows = page.locator('.console-log-table tbody tr');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    for (const action of ['banner set', 'maintenance', 'signup close', 'signup open', 'banner clear']) {
      expect(
        texts.some((t) => t.includes(action) && t.includes(operator.username) && t.includes('127.0.0.1')),
        action,
      ).toBe(true);
    }
    expect(texts.some((t) => t.includes('users promote') && t.includes('CLI ('))).toBe(true);
    await page.getByLabel('Action', { exact: true }).selectOption('maintenance');
    await page.getByText('2 entries').waitFor();
    const filtered = await rows.allInnerTexts();
    expect(filtered).toHaveLength(2);
    // Its details in words: "state on", not JSON.
    expect(filtered.every((t) => t.includes('maintenance') && /state (on|off)/.test(t) && !t.includes('"'))).toBe(true);
    await screenshot(page, 'console-log');
  });
});
