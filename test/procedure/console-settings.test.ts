import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { runCli } from '../../src/server/cli/main';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { SIGNUP_CLOSED } from '../../src/server/operator/platform';
import { describeZodError } from '../../src/server/rpc/trpc';
import { ZodError } from 'zod';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, newUserInput, type FreshUser } from '../support/users';

let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
const OPERATOR_IP = '198.51.100.7';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect(
    await runCli(['users', 'promote', operator.username], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} }),
  ).toBe(0);
});
afterAll(() => d?.close());

const op = () => d.caller(operator.token, OPERATOR_IP).console;

/** The message a client reads for an input error (the error formatter's). */
function zodMessage(err: { cause?: unknown }): string {
  expect(err.cause).toBeInstanceOf(ZodError);
  return describeZodError(err.cause as ZodError);
}

/** The newest log line, as the console lists it. */
async function lastLine() {
  const page = await op().log({ per_page: 1 });
  return page.lines[0];
}

function expectOperatorLine(line: Awaited<ReturnType<typeof lastLine>>, action: string) {
  expect(line).toMatchObject({
    action,
    actor: 'operator',
    operator: { id: operator.id, username: operator.username },
    address: OPERATOR_IP,
  });
  expect(Math.abs(Date.parse(line.at) - Date.now())).toBeLessThan(60_000);
}

describe('console settings', () => {
  it('switches maintenance through the same service as the CLI, and logs who, what, when and from where', async () => {
    await op().settings.set_maintenance({ on: true });
    expect(await d.caller().system.status()).toMatchObject({ maintenance: true });
    expect((await rejection(d.caller(customer.token).auth.get_tfa())).code).toBe('SERVICE_UNAVAILABLE');
    expectOperatorLine(await lastLine(), 'maintenance');
    expect((await lastLine()).detail).toEqual({ state: 'on' });
    // The maintenance event reaches every open tab.
    const event = await d.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'maintenance')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ user_id: null, payload: JSON.stringify({ on: true }) });

    // The CLI sees the console's switch and switches it back; the log tells the two apart.
    const out: string[] = [];
    expect(await runCli(['maintenance'], { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) })).toBe(0);
    expect(out).toEqual(['maintenance is on']);
    expect(await runCli(['maintenance', 'off'], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} })).toBe(0);
    expect(await op().settings.get()).toMatchObject({ maintenance: false });
    expect(await lastLine()).toMatchObject({
      action: 'maintenance',
      actor: 'cli',
      address: 'cli',
      operator: null,
      detail: { state: 'off' },
    });

    // Switching to what it already is writes nothing.
    const before = (await op().log({})).total;
    await op().settings.set_maintenance({ on: false });
    expect((await op().log({})).total).toBe(before);
  });

  it('switches once when the same switch arrives 100 times at once from 100 addresses', async () => {
    const before = (await op().log({ action: 'maintenance' })).total;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        d.caller(operator.token, `127.0.${i >> 8}.${(i & 255) + 1}`).console.settings.set_maintenance({ on: true }),
      ),
    );
    expect((await op().log({ action: 'maintenance' })).total).toBe(before + 1);
    expect(
      await d.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'maintenance')
        .where('payload', '=', JSON.stringify({ on: true }))
        .execute(),
    ).toHaveLength(2);
    await op().settings.set_maintenance({ on: false });
  });

  it('shows the banner in every customer profile, announces it live, and clears it', async () => {
    const banner = {
      text: 'Planned upgrade on Sunday at 10:00 UTC',
      link: '/dashboard/billing',
      bg: 'warning' as const,
    };
    await op().settings.set_banner({ banner });
    expect((await d.caller(customer.token).auth.get_common_info()).info.alert).toEqual(banner);
    expectOperatorLine(await lastLine(), 'banner set');
    expect((await lastLine()).detail).toEqual(banner);
    const event = await d.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'refresh_profile')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.user_id).toBeNull();
    expect(await op().settings.get()).toMatchObject({ banner });

    await op().settings.set_banner({ banner: null });
    expect((await d.caller(customer.token).auth.get_common_info()).info.alert).toBeNull();
    expectOperatorLine(await lastLine(), 'banner clear');
  });

  it('sets and clears the banner from the CLI through the same service', async () => {
    const dir = { DATA_DIR: d.deps.config.dataDir };
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l) };
    const before = (await op().log({})).total;
    const stderr = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await runCli(['banner', 'set', 'Hi', '--colour', 'purple'], dir, io)).toBe(2);
    } finally {
      process.stderr.write = stderr;
    }
    expect((await op().log({})).total).toBe(before);
    expect(
      await runCli(
        ['banner', 'set', 'New', 'coins', 'this', 'week', '--link', '/dashboard', '--colour', 'success'],
        dir,
        io,
      ),
    ).toBe(0);
    expect((await d.caller(customer.token).auth.get_common_info()).info.alert).toEqual({
      text: 'New coins this week',
      link: '/dashboard',
      bg: 'success',
    });
    expect(await lastLine()).toMatchObject({ action: 'banner set', actor: 'cli', address: 'cli', operator: null });
    expect(await runCli(['banner', 'clear'], dir, io)).toBe(0);
    expect((await d.caller(customer.token).auth.get_common_info()).info.alert).toBeNull();
    expect(out).toEqual(['banner set: every customer sees it now', 'banner cleared']);
  });

  it('refuses a bad banner with a clear message and changes nothing', async () => {
    const before = (await op().log({})).total;
    const bad = [
      { text: '', link: '', bg: 'info' },
      { text: 'x'.repeat(201), link: '', bg: 'info' },
      { text: 'hi', link: 'javascript:alert(1)', bg: 'info' },
      { text: 'hi', link: '//evil.example', bg: 'info' },
      { text: 'hi', link: '', bg: 'purple' },
    ];
    for (const banner of bad) {
      const err = await rejection(op().settings.set_banner({ banner: banner as never }));
      expect(err.code).toBe('BAD_REQUEST');
      expect(zodMessage(err)).toMatch(/^banner\.(text|link|bg): /);
    }
    expect((await op().log({})).total).toBe(before);
    expect(await op().settings.get()).toMatchObject({ banner: null });
  });

  it('closes sign-up: register refuses with a clear message and creates nothing; opening it again lets people in', async () => {
    await op().settings.set_signup({ open: false });
    expectOperatorLine(await lastLine(), 'signup close');
    const input = newUserInput('closed');
    const err = await rejection(d.caller().auth.register(input));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toBe(SIGNUP_CLOSED);
    expect(
      await d.db.selectFrom('users').select('id').where('username', '=', input.username).executeTakeFirst(),
    ).toBeUndefined();
    // Those with an account still log in.
    expect((await d.caller().auth.login({ username: customer.username, password: customer.password })).success).toBe(
      true,
    );

    const out: string[] = [];
    expect(await runCli(['signup'], { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) })).toBe(0);
    expect(out).toEqual(['sign-up is closed']);
    await op().settings.set_signup({ open: true });
    expectOperatorLine(await lastLine(), 'signup open');
    expect((await d.caller().auth.register(input)).success).toBe(true);
  });
});

describe('console log', () => {
  it('filters by action, operator and date range, and pages', async () => {
    const all = await op().log({ per_page: 100 });
    expect(all.total).toBeGreaterThanOrEqual(6);
    const banners = await op().log({ action: 'banner set' });
    expect(banners.lines.length).toBeGreaterThan(0);
    expect(banners.lines.every((l) => l.action === 'banner set')).toBe(true);
    const mine = await op().log({ operator_id: operator.id, per_page: 100 });
    expect(mine.lines.every((l) => l.operator?.id === operator.id)).toBe(true);
    expect(mine.total).toBeLessThan(all.total); // the CLI's lines are not the operator's
    const today = new Date().toISOString().slice(0, 10);
    expect((await op().log({ from: today, to: today })).total).toBe(all.total);
    expect((await op().log({ from: '2020-01-01', to: '2020-01-31' })).total).toBe(0);
    const page1 = await op().log({ per_page: 2, page: 1 });
    const page2 = await op().log({ per_page: 2, page: 2 });
    expect(page1.lines.map((l) => l.id)).toEqual(all.lines.slice(0, 2).map((l) => l.id));
    expect(page2.lines.map((l) => l.id)).toEqual(all.lines.slice(2, 4).map((l) => l.id));
    expect(zodMessage(await rejection(op().log({ from: '2026-02-30' })))).toBe(
      'from: must be a date such as 2026-11-23',
    );
    expect(zodMessage(await rejection(op().log({ from: '2026-03-02', to: '2026-03-01' })))).toBe(
      'to: must not be before the From day',
    );
    const filters = await op().log_filters();
    expect(filters.actions).toEqual(
      expect.arrayContaining(['maintenance', 'banner set', 'signup close', 'users promote']),
    );
    expect(filters.operators).toEqual([{ id: operator.id, username: operator.username }]);
  });
});

describe('console overview', () => {
  it('counts nodes, deploys, slots, revenue, pending deposits and mail from the database', async () => {
    const owner = await freshUser(d.deps, { prefix: 'owner' });
    const host = await d.db
      .selectFrom('hosts')
      .select(['id', 'name', 'dedicated_slots'])
      .orderBy('id')
      .executeTakeFirst();
    const before = await op().overview();
    const now = Date.now();
    await insertTestNode(d.db, {
      mn_id: `ov-live-${now}`,
      user_id: owner.id,
      coin_id: 'dash',
      status: 'online',
      placement: host ? { host_id: host.id } : undefined,
      observation: { checked_at: now - 90_000 },
    });
    await insertTestNode(d.db, {
      mn_id: `ov-failed-${now}`,
      user_id: owner.id,
      coin_id: 'dash',
      state: 'failed',
      failed_reason: 'no capacity',
    });
    await insertTestNode(d.db, {
      mn_id: `ov-old-${now}`,
      user_id: owner.id,
      coin_id: 'pivx',
      created_at: now - 3 * 86_400_000,
      state: 'deleted',
      deleted_at: now - 86_400_000,
    });
    await d.db.transaction().execute(async (trx) => {
      await postTransfer(trx, {
        idempotencyKey: `ov-fund-${now}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(owner.id),
        amount: 10_000_000,
        kind: 'adjustment',
        description: 'test',
        quiet: true,
      });
      await postTransfer(trx, {
        idempotencyKey: `ov-fee-${now}`,
        debit: userAccount(owner.id),
        credit: PLATFORM.revenue,
        amount: 1_250_000,
        kind: 'daily_charge',
        description: 'fee',
        quiet: true,
      });
    });
    const o = await op().overview();
    expect(o.deploys_24h.total - before.deploys_24h.total).toBe(2);
    expect(o.deploys_24h.failed - before.deploys_24h.failed).toBe(1);
    expect(o.revenue.today_micros - before.revenue.today_micros).toBe(1_250_000);
    expect(o.revenue.month_micros - before.revenue.month_micros).toBe(1_250_000);
    const count = (ov: typeof o, status: string, coin: string) =>
      ov.nodes.find((n) => n.status === status && n.coin_id === coin)?.count ?? 0;
    expect(count(o, 'online', 'dash') - count(before, 'online', 'dash')).toBe(1);
    expect(o.monitor.live - before.monitor.live).toBe(1);
    expect(o.monitor.lag_seconds).toBeGreaterThanOrEqual(90);
    // Registration mail was queued and nothing in this tier sends it.
    expect(o.mail.pending).toBeGreaterThan(0);
    expect(o.history).toHaveLength(30);
    expect(o.history.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(o.history.at(-1)!.revenue_micros - before.history.at(-1)!.revenue_micros).toBe(1_250_000);
    expect(o.history.at(-1)!.hosted - before.history.at(-1)!.hosted).toBe(1); // the live one; failed and deleted ones are not hosted
    // Two days ago the deleted node was still hosted.
    expect(o.history.at(-3)!.hosted - before.history.at(-3)!.hosted).toBe(1);
    if (host) {
      const h = o.hosts.find((x) => x.id === host.id)!;
      const hb = before.hosts.find((x) => x.id === host.id)!;
      expect(h.dedicated.used - hb.dedicated.used).toBe(1);
      expect(h.dedicated.free).toBe(Math.max(0, h.dedicated.slots - h.dedicated.used));
    }
  });
});
