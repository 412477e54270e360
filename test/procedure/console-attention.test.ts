import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeBack } from '../../src/server/billing/debt';
import type { MoneyTx } from '../../src/server/billing/ledger';
import { runCli } from '../../src/server/cli/main';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// The overview's "Needs you": one of each thing that needs the operator is made, and each
// shows with its count (and a failed delivery with its owner's email and channel).
let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect(
    await runCli(['users', 'promote', operator.username], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} }),
  ).toBe(0);
  // Every charge day done up to today: a fresh database's first day would count as late.
  await d.db
    .insertInto('charge_days')
    .values({ day: day(Date.now()), started_at: 1, completed_at: 1 })
    .execute();
});
afterAll(() => d?.close());

const attention = async () => (await d.caller(operator.token).console.overview()).attention;

describe("the overview's Needs you", () => {
  it('is all clear when nothing needs the operator', async () => {
    expect(await attention()).toEqual({
      failed_jobs: { count: 0, newest: [] },
      support_unread: { conversations: 0, messages: 0 },
      debts: { count: 0, owed_micros: 0 },
      charge_days_stuck: { count: 0, first: null },
      hosts_low_disk: [],
    });
  });

  it('counts a failed webhook delivery and names its owner and channel', async () => {
    const now = Date.now();
    const { id: channelId } = await d.db
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
    const { id } = await d.db
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
      .returning('id')
      .executeTakeFirstOrThrow();
    const a = await attention();
    expect(a.failed_jobs.count).toBe(1);
    expect(a.failed_jobs.newest).toEqual([
      {
        id,
        name: 'notify.channel',
        whose: `${customer.email}'s webhook https://hooks.example.com/nodes`,
        reason: 'HTTP 500',
        failed_at: new Date(now).toISOString(),
      },
    ]);
  });

  it('counts a support chat with unread messages', async () => {
    await d.caller(customer.token).support.send({ body: 'My node is down.' });
    await d.caller(customer.token).support.send({ body: 'Still down.' });
    expect((await attention()).support_unread).toEqual({ conversations: 1, messages: 2 });
  });

  it('counts an open debt and its sum', async () => {
    await d.db.transaction().execute((trx: MoneyTx) =>
      takeBack(trx, {
        userId: customer.id,
        amount: 7_000_000,
        idempotencyKey: `take:${customer.id}`,
        kind: 'card_refund',
        description: 'Card payment refunded',
      }),
    );
    expect((await attention()).debts).toEqual({ count: 1, owed_micros: 7_000_000 });
  });

  it('counts the charge days stuck behind the first one not completed', async () => {
    const now = Date.now();
    await d.db.deleteFrom('charge_days').execute();
    await d.db
      .insertInto('charge_days')
      .values({ day: day(now - 3 * DAY_MS), started_at: 1, completed_at: 1 })
      .execute();
    const stuck = (await attention()).charge_days_stuck;
    expect(stuck.first).toBe(day(now - 2 * DAY_MS));
    // Two days before today, and today too once past 01:00 UTC.
    expect(stuck.count).toBe(now % DAY_MS >= 3_600_000 ? 3 : 2);
  });

  it('names a host low on disk with its free space', async () => {
    const now = Date.now();
    await d.db
      .insertInto('hosts')
      .values({
        name: 'disk-short',
        engine: 'local',
        url: null,
        ipv4: '203.0.113.40',
        ipv6: null,
        dedicated_slots: 1,
        cloud_slots: 1,
        state: 'active',
        last_error: null,
        created_at: now,
        disk_free_bytes: 4_000_000_000,
        disk_total_bytes: 100_000_000_000,
        disk_checked_at: now,
        disk_low_at: now,
        memory_total_bytes: null,
      })
      .execute();
    expect((await attention()).hosts_low_disk).toEqual([{ name: 'disk-short', free_bytes: 4_000_000_000 }]);
  });
});
