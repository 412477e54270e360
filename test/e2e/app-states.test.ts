import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findUserByLogin } from '../../src/server/auth/queries';
import { runCli } from '../../src/server/cli/main';
import { afterRaise, raise } from '../../src/server/notifications/raise';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser } from '../support/users';
import { linkIn, startSmtp } from '../support/smtp';
import { holdCallBudget } from '../support/flood';
import { at, browserSession, fitsViewport, pathOf, screenshot, logInLive } from './browser';

// The client's other states and pages: small routes, password reset, the error app,
// the maintenance app, live notifications, small screens and a server restart.
// Run `npm run build:client` first.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;
// Asks for the url at every page: the restart test replaces the server.
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

const quiet = { out: () => {} };

/** A just-registered user (not verified, not logged in), who then logs in through the page. */
async function registerUser(prefix: string) {
  const { username, email, password } = await freshUser(server.deps, { prefix, verified: false, login: false });
  return { username, email, password };
}

describe('client states', () => {
  it('follows the small routes: /ref, /verify and /reset without their query', async () => {
    const page = await newPage();
    await page.goto('/ref/friend42');
    await at(page, '/');
    expect(await page.evaluate(() => localStorage.getItem('referrer'))).toBe('friend42');
    await page.goto('/verify');
    await at(page, '/');
    await page.goto('/reset');
    await at(page, '/dashboard');
    await page.goto('/reset?token=not-a-real-token');
    await at(page, '/dashboard');
    await page.goto('/register?username=alice&email=alice%40example.test');
    expect(await page.getByLabel('Username', { exact: true }).inputValue()).toBe('alice');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('alice@example.test');
    await page.context().close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const user = await registerUser('reset');
    const email = user.email;
    const page = await newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: /Lost password/ }).click();
    await at(page, '/recover');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(/If an account exists for that email/).waitFor();

    const mail = await smtp.waitFor(email, /reset/i);
    await page.goto(linkIn(mail.text, '/reset?token='));
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-pasS');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await at(page, '/login');

    await page.getByLabel('Username or email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await at(page, '/dashboard');
    await page.context().close();
  });

  it('shows the error app when the start-up call cannot reach the server', async () => {
    const page = await newPage();
    await page.route('**/trpc/**', (route) => route.abort('connectionrefused'));
    await page.goto('/');
    await page
      .getByText('Oops! Looks like there is a problem on our side. Please try again in a little while')
      .waitFor();
    await screenshot(page, 'error-app');

    await page.unroute('**/trpc/**');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('heading', { name: /Masternode hosting/ }).waitFor();
    await page.context().close();
  });

  it("says a refusal of the account's call budget at start-up in its own words, and keeps the login", async () => {
    const { token } = await freshUser(server.deps, { prefix: 'spent' });
    const budget = holdCallBudget(server.url, token);
    const page = await newPage();
    try {
      await budget.held;
      await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), token);
      await page.goto('/dashboard');
      await page
        .getByRole('heading', { name: /^Too many requests at once from this account or address\. Please wait/ })
        .waitFor();
      expect(await page.getByText('Oops! Looks like there is a problem on our side', { exact: false }).count()).toBe(0);
      budget.release();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('link', { name: 'Portfolio', exact: true }).first().waitFor();
      expect(pathOf(page)).toBe('/dashboard');
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBe(token);
    } finally {
      budget.release();
      await page.context().close();
    }
  });

  it('a login from another tab whose profile is refused is said, not taken for a logout', async () => {
    const user = await freshUser(server.deps, { prefix: 'twotabs' });
    const other = await callerFor(server.deps)().auth.login({ username: user.username, password: user.password });
    const page = await newPage();
    await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), user.token);
    await page.goto('/dashboard/portfolio');
    await page.getByRole('heading', { name: 'Portfolio', level: 1 }).waitFor();
    // Both sessions are the same account: its budget is held for both.
    const budget = holdCallBudget(server.url, user.token);
    try {
      await budget.held;
      // The other tab's login, as this tab hears of it: the stored token changes.
      await page.evaluate((t) => {
        localStorage.setItem('auth_token', t);
        dispatchEvent(new StorageEvent('storage', { key: 'auth_token' }));
      }, other.auth_token!);
      const alert = page
        .getByRole('alert')
        .filter({ hasText: /^Your account could not be loaded: Too many requests at once/ });
      await alert.waitFor();
      expect(pathOf(page)).toBe('/dashboard/portfolio');
      budget.release();
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'Portfolio', level: 1 }).waitFor();
      expect(pathOf(page)).toBe('/dashboard/portfolio');
    } finally {
      budget.release();
      await page.context().close();
    }
  });

  it('keeps a page whose data the call budget refused, says why, and loads it on "Try again"', async () => {
    const { token } = await freshUser(server.deps, { prefix: 'spentpage' });
    const page = await newPage();
    await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), token);
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Portfolio', exact: true }).first().waitFor();
    const budget = holdCallBudget(server.url, token);
    try {
      await budget.held;
      // Within the app, as a click on a coin's Deploy would go (no reload).
      await page.evaluate(() => {
        history.pushState(null, '', '/dashboard/deploy?coin=dash');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      const alert = page
        .getByRole('alert')
        .filter({ hasText: /^This coin could not be loaded: Too many requests at once/ });
      await alert.waitFor();
      expect(pathOf(page)).toBe('/dashboard/deploy?coin=dash');
      budget.release();
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('button', { name: "Let's start" }).waitFor();
      expect(pathOf(page)).toBe('/dashboard/deploy?coin=dash');
    } finally {
      budget.release();
      await page.context().close();
    }
  });

  it('switches open pages into and out of the maintenance app', async () => {
    const user = await registerUser('maint');
    const page = await newPage();
    await logInLive(page, user);

    // The CLI's switch broadcasts a `maintenance` event: the open page switches app.
    expect(await runCli(['maintenance', 'on'], { DATA_DIR: server.dataDir }, quiet)).toBe(0);
    await at(page, '/maintenance');
    await page.getByText("We're just tuning up a few things.").waitFor();
    await screenshot(page, 'maintenance');

    // A visitor sees only /login and /maintenance.
    const guest = await newPage();
    await guest.goto('/pricing');
    await at(guest, '/maintenance');
    await guest.goto('/login');
    await guest.getByLabel('Username or email', { exact: true }).waitFor();

    expect(await runCli(['maintenance', 'off'], { DATA_DIR: server.dataDir }, quiet)).toBe(0);
    // Back where it was, not left on "No maintenance right now".
    await at(page, '/dashboard');
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    await page.context().close();
    await guest.context().close();
  });

  it('shows a live notification as a toast and in the navbar list', async () => {
    const user = await registerUser('note');
    const page = await newPage();
    await logInLive(page, user);
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const row = await findUserByLogin(server.deps.db, user.username);
    await raise(server.deps.db, row!.id, 'node_deployed', { mn_id: 'dash-1', coin: 'Dash' });
    afterRaise(server.deps);

    await page.getByRole('status').filter({ hasText: 'Your Dash node dash-1 is deployed and syncing.' }).waitFor();
    await page.getByRole('button', { name: 'Notifications (1)' }).click();
    const list = page.getByRole('region', { name: 'Notification list' });
    await list.getByText('Your Dash node dash-1 is deployed and syncing.').waitFor();
    await list.getByRole('button', { name: 'Clear' }).click();
    await list.getByText("You don't have any notifications :(").waitFor();
    await page.context().close();
  });

  it('fits a 390 px wide screen', async () => {
    const page = await newPage(390);
    for (const path of ['/', '/pricing', '/faq', '/login', '/register', '/dashboard', '/404']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await fitsViewport(page), path).toBe(true);
    }
    await screenshot(page, 'mobile-404');
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'mobile-landing');

    const user = await registerUser('small');
    await logInLive(page, user);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, 'mobile-settings');
    await page.context().close();
  });

  it('reconnects after a server restart and reloads the page', { timeout: 60_000 }, async () => {
    const user = await registerUser('restart');
    const page = await newPage();
    await logInLive(page, user);
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'before restart'));

    // Same data and port: the websocket link reconnects on its own, replays from its
    // last event id, gets the new boot's `restarted` and reloads the page.
    const reloaded = page.waitForEvent('load', { timeout: 45_000 });
    const { dataDir, port } = server;
    await stopTestServer(server, { keepData: true });
    server = await startTestServer({ SMTP_URL: smtp.url }, { dataDir, port });
    await reloaded;

    await page.getByTestId('topbar-balance').waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
    expect(pathOf(page)).toBe('/dashboard');
    await page.context().close();
  });
});
