import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { findUserByLogin } from '../../src/server/auth/queries';
import { insertEvent } from '../../src/server/events/outbox';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { at, browserSession } from './browser';

// A live event refetches only the queries it concerns (src/client/app/liveQueries.ts),
// in a real browser against the real server. Run `npm run build:client` first.

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

async function registerAndLogIn(page: Page) {
  const username = `live_${Date.now().toString(36)}`;
  const password = 'live-secret-1';
  const res = await fetch(`${server.url}/public_api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.test`, password }),
  });
  expect(res.status).toBe(200);
  const subscribed = page
    .waitForEvent('websocket')
    .then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('"sync"') }));
  await page.goto('/login');
  await page.getByLabel('Username or email', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await at(page, '/dashboard');
  await subscribed;
  return (await findUserByLogin(server.deps.db, username))!.id;
}

/** The procedures one tRPC HTTP request carries (a batch names them all in its path). */
function procedures(req: Request): string[] {
  const path = new URL(req.url()).pathname;
  return path.startsWith('/trpc/') ? decodeURIComponent(path.slice('/trpc/'.length)).split(',') : [];
}

/**
 * Resolves when a page's new live subscription has started (its `sync` frame) and the
 * reading-again that follows it has been answered.
 */
function liveReread(page: Page): Promise<void> {
  return new Promise((resolve) => {
    let synced = false;
    page.once('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (String(f.payload).includes('"sync"')) synced = true;
      }),
    );
    const onFinished = (r: Request) => {
      if (!synced || procedures(r).length === 0) return;
      page.off('requestfinished', onFinished);
      resolve();
    };
    page.on('requestfinished', onFinished);
  });
}

/** Sends an event and returns the first tRPC request that carries `expected`. */
async function refetchAfter(page: Page, send: () => Promise<unknown>, expected: string): Promise<string[]> {
  const request = page.waitForRequest((r) => procedures(r).includes(expected));
  await send();
  await server.deps.hub.poke();
  return procedures(await request);
}

describe('live events in the browser', () => {
  it('refetch only the queries they concern', { timeout: 90_000 }, async () => {
    const page = await session.newPage();
    const userId = await registerAndLogIn(page);
    // The portfolio keeps the node list, the platform totals and the profile active.
    const settled = liveReread(page);
    await page.goto('/dashboard/portfolio');
    await page.getByRole('heading', { name: "You don't have any masternodes" }).waitFor();
    // The new page's subscription reads its queries once more when it starts: not an event's refetch.
    await settled;

    // Refetching everything would put every active query in the same batch as the
    // one the event concerns (invalidation refetches them all in one tick).
    const afterStats = await refetchAfter(
      page,
      () => insertEvent(server.deps.db, null, 'update_stats', {}),
      'coins.get_stats',
    );
    expect(afterStats).not.toContain('nodes.get_masternodes');
    expect(afterStats).not.toContain('auth.get_common_info');

    const afterNodes = await refetchAfter(
      page,
      () => insertEvent(server.deps.db, userId, 'refresh_masternodes', {}),
      'nodes.get_masternodes',
    );
    expect(afterNodes).not.toContain('coins.get_stats');
    expect(afterNodes).not.toContain('auth.get_common_info');
    await page.context().close();
  });

  it('a page whose live socket opened late shows what changed before it opened', { timeout: 90_000 }, async () => {
    const page = await session.newPage();
    const userId = await registerAndLogIn(page);
    // The next page's socket is held until the balance has changed: its event is raised
    // and delivered to no one, as when a page's first reads and its subscription straddle it.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let opened!: () => void;
    const socketOpened = new Promise<void>((r) => (opened = r));
    await page.routeWebSocket(/\/live(\?|$)/, (ws) => {
      const held: Array<string | Buffer> = [];
      let server: ReturnType<typeof ws.connectToServer> | null = null;
      ws.onMessage((m) => (server ? server.send(m) : held.push(m)));
      opened();
      void released.then(() => {
        server = ws.connectToServer();
        server.onMessage((m) => ws.send(m));
        for (const m of held) server.send(m);
      });
    });
    await page.goto('/dashboard/billing');
    await socketOpened;

    const balance = page.getByTestId('topbar-balance');
    await expect.poll(() => balance.textContent()).toBe('$0.00');
    await server.deps.db.transaction().execute((trx) =>
      postTransfer(trx, {
        kind: 'adjustment',
        idempotencyKey: `late-socket-${userId}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(userId),
        amount: 7_250_000,
        description: 'Credit while the page had no socket',
      }),
    );
    await server.deps.hub.poke();
    release();
    await expect.poll(() => balance.textContent(), { timeout: 15_000 }).toBe('$7.25');
    await page.context().close();
  });
});
