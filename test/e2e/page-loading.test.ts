import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { startFakeDocker } from '../support/fake-docker';
import { requestFrom } from '../support/from-ip';
import { startSmtp } from '../support/smtp';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, newUserInput, outboxLink, type FreshUser } from '../support/users';
import { at, browserSession, liveSubscribed, logInLive } from './browser';

// Issue 27: no page says "Loading…" for more than 10 s. A page whose code never arrives
// (its request held open, as a stalled connection does) turns into an error with a
// Retry button; Retry loads it once the code can be fetched. Every redirect the app
// makes to a lazily loaded page is followed here: /404, /, /login, /dashboard and
// /maintenance. The first case follows the issue's sequence (REST customer, an operator
// working through the console's calls, then the customer opening /console in Chromium).
// A page's code or stylesheet whose request fails once, as Chromium fails every request
// in flight when the machine's network changes (ERR_NETWORK_CHANGED), loads in place:
// a reload made during the change fails too.
// Run `npm run build` first.

/** The promise made to customers: no spinner for longer than this. */
const LOADING_PROMISE_MS = 10_000;

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let docker: Awaited<ReturnType<typeof startFakeDocker>>;
let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;

beforeAll(async () => {
  smtp = await startSmtp();
  docker = await startFakeDocker();
  server = await startTestServer({ SMTP_URL: smtp.url });
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  await cli('users', 'promote', operator.username);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await docker?.close();
  await smtp?.close();
});

async function cli(...args: string[]) {
  expect(await runCli(args, { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(0);
}

/** One console call as the operator's browser makes it (a query as GET, a mutation as POST). */
async function consoleCall(path: string, input: unknown, kind: 'query' | 'mutation' = 'mutation') {
  const url = `${server.url}/trpc/${path}${kind === 'query' ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  const res = await fetch(url, {
    method: kind === 'query' ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
    body: kind === 'query' ? undefined : JSON.stringify(input),
  });
  const body = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body.result.data;
}

/**
 * Steps 1 and 2 of the issue: a customer registers and verifies over REST, logs in and
 * makes a key limited to 127.0.0.1; the operator works through the console's calls.
 * Returns the customer's login.
 */
async function issueSequence(prefix = 'cust27') {
  // 1. A customer registers and verifies over REST, logs in and makes a key limited to 127.0.0.1.
  const input = newUserInput(prefix);
  const rest = (path: string, body: unknown, token?: string) =>
    requestFrom('127.0.0.1', `${server.url}${path}`, { body, token });
  expect((await rest('/public_api/register', input)).body.success).toBe(true);
  const hash = await outboxLink(server.deps.db, input.email, '/verify?h=');
  expect((await rest('/public_api/verify', { hash })).body.success).toBe(true);
  const token = (await rest('/public_api/login', { username: input.username, password: input.password })).body
    .auth_token as string;
  expect((await rest('/api/create_api_key', { name: 'this box', allowed: '127.0.0.1' }, token)).body.success).toBe(
    true,
  );

  // 2. The operator (promoted by the CLI, 2FA on) through the console's calls.
  const host = `loop-${prefix}`;
  await consoleCall('console.fleet.add_host', { name: host, url: docker.url, ipv4: '192.0.2.27' });
  await consoleCall('console.fleet.drain_host', { name: host });
  await consoleCall('console.catalog.set_flag', { coin: 'dash', flag: 'maintenance', on: true });
  await consoleCall('console.catalog.set_flag', { coin: 'dash', flag: 'maintenance', on: false });
  await consoleCall('console.catalog.set_price', { coin: 'dash', dedicated: '12.50' });
  const found = await consoleCall('console.customers.search', { q: input.username }, 'query');
  const id = found.customers[0].id as number;
  const credit = { id, amount: '5', reason: 'Welcome credit', key: `credit-${id}` };
  expect((await consoleCall('console.customers.adjust_balance', credit)).applied).toBe(true);
  expect((await consoleCall('console.customers.adjust_balance', credit)).applied).toBe(false);
  const gift = await consoleCall('console.money.create_gift_codes', {
    amount: '3',
    count: 3,
    expires: '2030-01-01',
  });
  expect((await rest('/api/redeem_coupon', { code: gift.codes[0] }, token)).body.success).toBe(true);
  await consoleCall('console.settings.set_maintenance', { on: true });
  await consoleCall('console.settings.set_maintenance', { on: false });
  return input;
}

/**
 * Holds every request for a page's chunk open (no answer, as on a stalled connection)
 * until `release`.
 */
async function holdChunk(page: Page, name: string) {
  // The page's clock runs as usual until retriesInTime moves it on: the watchdog's wait is
  // proven on that clock, not by sitting through it.
  await page.clock.install();
  const held: Route[] = [];
  let open = false;
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), (route) =>
    open ? route.continue() : void held.push(route),
  );
  return {
    held: () => held.length,
    /** Later requests load; the held ones stay unanswered (an answer now would be a failed chunk, which reloads the page by itself). */
    release: () => void (open = true),
  };
}

/**
 * Fails the first request for a page's asset (`pattern`) the way Chromium fails every
 * request in flight when the machine's network changes (ERR_NETWORK_CHANGED: a container
 * starting or stopping on the same machine adds or removes an interface); later ones load.
 * Counts the page's document loads, so a reload shows.
 */
async function failOnce(page: Page, pattern: RegExp) {
  let failed = 0;
  let documents = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents++;
  });
  await page.route(pattern, (route) => (failed++ === 0 ? route.abort('failed') : route.continue()));
  return { failed: () => failed, documents: () => documents };
}

/**
 * After a redirect to `path` whose chunk is held: the spinner gives way to an error with
 * Retry within the promised time (the page's clock moved on by that time: nothing else
 * can end the wait, the chunk's request stays open); with the chunk back, Retry shows the
 * page.
 */
async function retriesInTime(page: Page, chunk: Awaited<ReturnType<typeof holdChunk>>, path: string) {
  await at(page, path);
  await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor();
  const card = page.getByRole('alert').filter({ hasText: 'This page is taking too long to load' });
  // The page's code is asked for (and held) before its clock moves on: a wait that ended
  // before the request went out would be another spinner's.
  await expect.poll(() => chunk.held()).toBeGreaterThan(0);
  expect(await card.count()).toBe(0);
  await page.clock.runFor(LOADING_PROMISE_MS);
  await card.waitFor();
  await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
  expect(await card.innerText()).toContain('Please check your internet connection and press Retry.');
  chunk.release();
  await card.getByRole('button', { name: 'Retry' }).click();
  await card.waitFor({ state: 'detached' });
}

describe('a page never stays on "Loading…"', () => {
  it(
    "the issue's sequence: a customer opening /console is sent to /404, whose chunk is held; an error with Retry shows within 10 s, and Retry shows the 404 page",
    { timeout: 90_000 },
    async () => {
      const input = await issueSequence();

      // 3. The customer logs in through the login page in a new context and opens /console.
      const page = await session.newPage();
      await logInLive(page, input);
      const notFound = await holdChunk(page, 'NotFound');
      await page.goto('/console');
      await retriesInTime(page, notFound, '/404');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.context().close();
    },
  );

  it(
    "the issue's sequence: the 404 page's code fails once as a network change fails it; the 404 page shows in place, without a reload, within 10 s",
    { timeout: 90_000 },
    async () => {
      const input = await issueSequence('cust27n');
      const page = await session.newPage();
      await logInLive(page, input);
      const chunk = await failOnce(page, /\/assets\/NotFound-[\w-]+\.js$/);
      await page.goto('/console');
      // Counted from here: the /404 that follows is a move inside the page, not a document load.
      const documentsBefore = chunk.documents();
      await at(page, '/404');
      const redirectedAt = Date.now();
      await page.getByRole('heading', { name: 'Page not found' }).waitFor({ timeout: 20_000 });
      expect(Date.now() - redirectedAt).toBeLessThan(LOADING_PROMISE_MS);
      expect(chunk.failed()).toBe(2); // the failed request, then the one that loaded
      expect(chunk.documents() - documentsBefore).toBe(0); // no reload
      await page.context().close();
    },
  );

  it(
    'a visitor sent to /login whose stylesheet fails once sees the login page styled, without a reload',
    { timeout: 60_000 },
    async () => {
      const page = await session.newPage();
      const sheet = await failOnce(page, /\/assets\/auth-[\w-]+\.css$/);
      await page.goto('/dashboard/settings');
      await at(page, '/login?redirect=%2Fdashboard%2Fsettings');
      await page.getByRole('button', { name: 'Log in', exact: true }).waitFor({ timeout: LOADING_PROMISE_MS });
      expect(sheet.failed()).toBe(2);
      expect(sheet.documents()).toBe(1); // the first load only
      // auth.css lays the card out as a centred flex row.
      expect(await page.locator('.auth-wrap').evaluate((el) => getComputedStyle(el).display)).toBe('flex');
      await page.context().close();
    },
  );

  it('a visitor at an unknown address is sent to /404', { timeout: 60_000 }, async () => {
    const page = await session.newPage();
    const notFound = await holdChunk(page, 'NotFound');
    await page.goto('/no-such-page');
    await retriesInTime(page, notFound, '/404');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.context().close();
  });

  it(
    'a chunk that fails while the browser drops the reload shows the error card, not "Loading…"',
    { timeout: 60_000 },
    async () => {
      const page = await session.newPage();
      // The 404 page's code fails to arrive; the reload that follows is cancelled by the
      // browser (the navigation ends without replacing the page).
      await page.route(/\/assets\/NotFound-[\w-]+\.js$/, (route) => route.abort('failed'));
      let reloads = 0;
      await page.route(
        (url) => url.pathname === '/404',
        (route) => (route.request().isNavigationRequest() ? (reloads++, route.abort('aborted')) : route.continue()),
      );
      await page.goto('/no-such-page');
      await at(page, '/404');
      const redirectedAt = Date.now();
      const card = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await card.waitFor({ timeout: 20_000 });
      expect(Date.now() - redirectedAt).toBeLessThan(LOADING_PROMISE_MS);
      expect(reloads).toBe(1);
      expect(await page.getByText('Loading…').count()).toBe(0);
      await page.context().close();
    },
  );

  it('a verification link without its code is sent to /', { timeout: 60_000 }, async () => {
    const page = await session.newPage();
    const landing = await holdChunk(page, 'Landing');
    await page.goto('/verify');
    await retriesInTime(page, landing, '/');
    await page.getByRole('heading', { level: 1, name: 'Masternode hosting without handing over your coins' }).waitFor();
    await page.context().close();
  });

  it("a visitor opening a customer's page is sent to /login", { timeout: 60_000 }, async () => {
    const page = await session.newPage();
    const login = await holdChunk(page, 'Login');
    await page.goto('/dashboard/settings');
    await retriesInTime(page, login, '/login?redirect=%2Fdashboard%2Fsettings');
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    await page.context().close();
  });

  it('a logged-in customer opening /login is sent to /dashboard', { timeout: 60_000 }, async () => {
    const customer = await freshUser(server.deps, { prefix: 'cust27d' });
    const page = await session.newPage();
    await logInLive(page, customer);
    const home = await holdChunk(page, 'DashboardHome');
    const subscribed = liveSubscribed(page);
    await page.goto('/login');
    await retriesInTime(page, home, '/dashboard');
    await subscribed;
    await page.getByRole('searchbox', { name: 'Search coins' }).waitFor();
    await page.context().close();
  });

  it('during maintenance a visitor is sent to /maintenance', { timeout: 60_000 }, async () => {
    await cli('maintenance', 'on');
    try {
      const page = await session.newPage();
      const maintenance = await holdChunk(page, 'Maintenance');
      await page.goto('/pricing');
      await retriesInTime(page, maintenance, '/maintenance');
      await page.getByRole('heading', { name: "We're just tuning up a few things." }).waitFor();
      await page.context().close();
    } finally {
      await cli('maintenance', 'off');
    }
  });
});
