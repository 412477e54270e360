import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { takeBack } from '../../src/server/billing/debt';
import { runCli } from '../../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser, type FreshUser } from '../support/users';
import { at, Authenticator, browserSession, logInWithCode, screenshot } from './browser';

// The console overview's "Needs you" in Chromium against the real server (built client in
// dist/client: run `npm run build` first): each thing that needs the operator shows with
// its count and links to the page where it is done.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'cust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
  const db = server.deps.db;
  const now = Date.now();
  // One of each: a failed webhook delivery, an unread chat, a debt, a host short of disk.
  const { id: channelId } = await db
    .insertInto('alert_channels')
    .values({
      user_id: customer.id,
      type: 'webhook',
      target: 'https://hooks.example.com/nodes',
      secret: 'sealed',
      enabled: 1,
      failures: 4,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('jobs')
    .values({
      name: 'notify.channel',
      key: `notify.channel:1:${channelId}`,
      payload: JSON.stringify({ notification_id: 1, channel_id: channelId }),
      state: 'failed',
      attempts: 4,
      run_at: now,
      last_error: 'HTTP 500',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await callerFor(server.deps)(customer.token).support.send({ body: 'My node is down.' });
  await db.transaction().execute((trx) =>
    takeBack(trx, {
      userId: customer.id,
      amount: 7_000_000,
      idempotencyKey: `take:${customer.id}`,
      kind: 'card_refund',
      description: 'Card payment refunded',
    }),
  );
  // A draining Docker host nothing reaches: the host check leaves its last disk reading alone.
  await db
    .insertInto('hosts')
    .values({
      name: 'disk-short',
      engine: 'docker',
      url: 'unix:///nonexistent/docker.sock',
      ipv4: '203.0.113.40',
      ipv6: null,
      dedicated_slots: 1,
      cloud_slots: 1,
      state: 'draining',
      last_error: null,
      created_at: now,
      disk_free_bytes: 4_000_000_000,
      disk_total_bytes: 100_000_000_000,
      disk_checked_at: now,
      disk_low_at: now,
      memory_total_bytes: null,
    })
    .execute();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe("the console overview's Needs you", () => {
  it('shows each thing that needs the operator with its count, and each link leads to its page', async () => {
    const page = await session.newPage();
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    await page.goto('/console');
    const needs = page.getByRole('region', { name: 'Needs you' });
    await needs.waitFor();
    await needs.getByText(`notify.channel`).waitFor();
    await needs.getByText(`for ${customer.email}'s webhook https://hooks.example.com/nodes`).waitFor();
    await screenshot(page, 'console-needs-you');

    const links: Array<[RegExp, string, string]> = [
      [/^1 failed background job$/, '/console/fleet', 'Fleet'],
      [/^1 support chat with unread messages$/, '/console/support', 'Support'],
      [/^1 customer owes money$/, '/console/money', 'Money'],
      [/^1 host low on disk$/, '/console/fleet', 'Fleet'],
    ];
    for (const [name, path, heading] of links) {
      await page.goto('/console');
      await needs.getByRole('link', { name }).click();
      await at(page, path);
      await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
    }
    // The command the Money page names is the one this install types (a checkout here).
    await page.goto('/console/money');
    await page.getByText('No deposit currency is configured (npm run nodekeep -- deposits add).').waitFor();
  });
});
