import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { linkIn, startSmtp } from '../support/smtp';
import { at, Authenticator, browserSession, screenshot } from './browser';

// The account flow of the foundation issue, in a real browser against the real server
// (built client in dist/client, SQLite, SMTP on loopback). Run `npm run build:client` first.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;
const session = browserSession(() => server.url);
const { newPage } = session;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url });
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await smtp?.close();
});

async function submitLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username or email', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

async function signOut(page: Page, username: string) {
  await page.getByRole('button', { name: username }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await at(page, '/login');
}

const alertText = (page: Page) => page.getByRole('alert').first().textContent();

describe('account flow in the browser', () => {
  it(
    'registers, verifies, logs in, sets up 2FA, changes the password, and guards routes',
    { timeout: 180_000 },
    async () => {
      const page = await newPage();
      const suffix = Date.now().toString(36);
      const username = `e2e_${suffix}`;
      const email = `${username}@example.test`;
      const password = 'first-secret-1';
      const newPassword = 'second-secret-2';

      // Landing page.
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('#overview').count()).toBe(1);
      expect(await page.locator('#features').count()).toBe(1);
      await screenshot(page, 'landing');

      // A guest asking for a private page is sent to login, with the way back kept.
      await page.goto('/dashboard/settings');
      await at(page, '/login?redirect=%2Fdashboard%2Fsettings');
      expect(await page.title()).toBe('Login · Nodekeep');
      await screenshot(page, 'login');

      // Register: a mismatch is refused in the form, then the real registration.
      await page.goto('/register');
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password + 'x');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('Passwords do not match').waitFor();
      await screenshot(page, 'register');
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page
        .getByText(/confirm your email through the link/i)
        .first()
        .waitFor();
      await page.getByRole('link', { name: 'Go to login' }).waitFor();

      // The verification mail's link verifies the address.
      const mail = await smtp.waitFor(email, /confirm/i);
      const link = linkIn(mail.text, '/verify?h=');
      await page.goto(link);
      await page.getByText('Successfully verified!').waitFor();
      await page.getByRole('link', { name: 'Log in' }).waitFor();

      // Log in and land on the page asked for first.
      await page.goto('/dashboard/settings');
      await at(page, '/login?redirect=%2Fdashboard%2Fsettings');
      await submitLogin(page, username, password);
      await at(page, '/dashboard/settings');
      await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
      await page.getByText(username, { exact: true }).first().waitFor();
      expect(await page.getByText('Not verified!').count()).toBe(0);
      expect(await page.getByTestId('topbar-balance').textContent()).toBe('$0.00');
      await screenshot(page, 'settings');

      // Activate 2FA with a code made from the secret the page shows.
      await page.getByRole('button', { name: 'Activate', exact: true }).click();
      const enableDialog = page.getByRole('dialog', { name: 'Activate two-factor authentication' });
      await enableDialog.getByRole('img', { name: /QR code/ }).waitFor();
      const secret = (await enableDialog.getByTestId('tfa-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      await screenshot(page, '2fa-modal', { fullPage: false });
      const phone = new Authenticator(secret);
      await enableDialog.getByLabel('2FA code', { exact: true }).fill(await phone.code());
      await enableDialog.getByRole('button', { name: 'Activate', exact: true }).click();
      const success = page.getByRole('dialog', { name: 'Success' });
      await success.getByText('Two-factor authentication is now enabled.').waitFor();
      await success.getByRole('button', { name: 'OK' }).click();
      await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();

      // Log out, log in again: the code step appears; a wrong code starts over.
      await signOut(page, username);
      await submitLogin(page, username, password);
      const codeField = page.getByLabel('2FA code', { exact: true });
      await codeField.waitFor();
      await codeField.fill(phone.wrongCode());
      await page.getByRole('button', { name: 'Verify code' }).click();
      await page.getByText('Invalid 2FA code.').waitFor();
      expect(await alertText(page)).toContain('Error!');
      expect(await page.getByLabel('Username or email', { exact: true }).inputValue()).toBe('');
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');

      await submitLogin(page, username, password);
      await codeField.fill(await phone.code());
      await page.getByRole('button', { name: 'Verify code' }).click();
      await at(page, '/dashboard');

      // Change the password: the mismatch first, then for real.
      await page.goto('/dashboard/settings');
      await page.getByLabel('Current password', { exact: true }).fill(password);
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword + 'x');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Please make sure your passwords match.').waitFor();
      await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText(/Your password has been changed/).waitFor();

      // The new password works (with a fresh 2FA code).
      await signOut(page, username);
      await submitLogin(page, username, newPassword);
      await codeField.fill(await phone.code());
      await page.getByRole('button', { name: 'Verify code' }).click();
      await at(page, '/dashboard');
      await page.getByRole('table', { name: 'Coins', exact: true }).locator('tbody tr[data-coin]').first().waitFor();

      // Guest-only pages send a logged-in user to the dashboard.
      await page.goto('/login');
      await at(page, '/dashboard');

      // Unknown paths end on /404.
      await page.goto('/no/such/page');
      await at(page, '/404');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Go to Dashboard' }).waitFor();
      await screenshot(page, '404');

      await page.context().close();
    },
  );

  it('shows a balance credited by the operator at once, without a reload', { timeout: 60_000 }, async () => {
    const { username, password } = await freshUser(server.deps, { prefix: 'e2e_bal_', verified: false, login: false });

    const page = await newPage();
    // The live subscription is up once the server's first frame (sync) has arrived.
    const subscribed = page
      .waitForEvent('websocket')
      .then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('"sync"') }));
    await page.goto('/login');
    await submitLogin(page, username, password);
    await at(page, '/dashboard');
    const balance = page.getByTestId('topbar-balance');
    expect(await balance.textContent()).toBe('$0.00');
    await subscribed;
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same page'));

    const out: string[] = [];
    const code = await runCli(
      ['billing', 'adjust', username, '+12.50', '--reason', 'test'],
      { DATA_DIR: server.dataDir },
      { out: (l) => out.push(l) },
    );
    expect(code).toBe(0);

    await balance.filter({ hasText: '$12.50' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
    await page.context().close();
  });
});
