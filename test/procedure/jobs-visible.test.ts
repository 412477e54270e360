import { afterEach, describe, expect, it } from 'vitest';
import { alertLateChargeDay, lateChargeDay } from '../../src/server/billing/charge-late';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { consoleOverview } from '../../src/server/console/overview';
import { JobRunner } from '../../src/server/jobs/runner';
import { watchDeposits } from '../../src/server/billing/crypto/watcher';
import type { Sources } from '../../src/server/billing/crypto/currencies';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser } from '../support/users';

// A recurring job that keeps failing, and a daily charge not done by 01:00 UTC, are seen:
// by the runner's `failing()` (for /readyz and the console overview), by lateChargeDay,
// and by the operators, told once per day.

const open: Deps[] = [];
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
});
async function deps(): Promise<Deps> {
  const d = await makeDeps();
  open.push(d);
  return d;
}

const DAY = '2026-11-20';
const at = (hms: string) => Date.parse(`${DAY}T${hms}.000Z`);

describe('recurring jobs that keep failing', () => {
  it('an interval job counts as failing from its third failure in a row, until a run succeeds', async () => {
    const d = await deps();
    const runner = new JobRunner(d.db, d.log);
    let fail = true;
    runner.every('events.poll', {
      everyMs: 3_600_000,
      deadlineMs: 5_000,
      run: async () => {
        if (fail) throw new Error('the daemon said no');
      },
    });
    try {
      await runner.trigger('events.poll');
      await runner.trigger('events.poll');
      expect(runner.failing()).toEqual([]);
      await runner.trigger('events.poll');
      expect(runner.failing()).toEqual([
        { name: 'events.poll', failures: 3, last_error: 'the daemon said no', since: expect.any(String) },
      ]);
      fail = false;
      await runner.trigger('events.poll');
      expect(runner.failing()).toEqual([]);
    } finally {
      await runner.stop(0);
    }
  });

  it('a cron job counts as failing from its second failure in a row (its runs are hours apart)', async () => {
    const d = await deps();
    const runner = new JobRunner(d.db, d.log);
    runner.every('backup.daily', {
      cron: '0 0 3 * * *',
      deadlineMs: 5_000,
      run: async () => {
        throw new Error('disk full');
      },
    });
    try {
      await runner.trigger('backup.daily');
      expect(runner.failing()).toEqual([]);
      await runner.trigger('backup.daily');
      expect(runner.failing().map((f) => [f.name, f.failures, f.last_error])).toEqual([
        ['backup.daily', 2, 'disk full'],
      ]);
    } finally {
      await runner.stop(0);
    }
  });
});

describe('a daily charge not completed by 01:00 UTC', () => {
  it('is late from 01:00 until the day completes', async () => {
    const d = await deps();
    expect(await lateChargeDay(d.db, at('00:59:59'))).toBeNull();
    expect(await lateChargeDay(d.db, at('01:00:00'))).toBe(`daily charge for ${DAY} not completed`);
    await runDailyCharge({ db: d.db, log: d.log }, at('01:30:00'));
    expect(await lateChargeDay(d.db, at('01:30:01'))).toBeNull();
  });

  it('names the stuck day, also in the hour after midnight: a day left open blocks every later one', async () => {
    const d = await deps();
    await runDailyCharge({ db: d.db, log: d.log }, Date.parse('2026-11-18T00:00:30.000Z'));
    // The 19th was begun and never completed (a crash, a bug): the 20th cannot be charged.
    await d.db
      .insertInto('charge_days')
      .values({ day: '2026-11-19', started_at: Date.parse('2026-11-19T00:00:30.000Z') })
      .execute();
    expect(await lateChargeDay(d.db, at('00:30:00'))).toBe('daily charge for 2026-11-19 not completed');
    expect(await lateChargeDay(d.db, at('05:00:00'))).toBe('daily charge for 2026-11-19 not completed');
    await runDailyCharge({ db: d.db, log: d.log }, at('05:00:00'));
    expect(await lateChargeDay(d.db, at('05:00:01'))).toBeNull();
  });

  it('tells every operator once per day, however many runs and processes ask at once', async () => {
    const d = await deps();
    const [op1, op2, customer] = [await freshUser(d.deps), await freshUser(d.deps), await freshUser(d.deps)];
    await d.db.updateTable('users').set({ role: 'operator' }).where('id', 'in', [op1.id, op2.id]).execute();

    expect(await alertLateChargeDay(d.deps, at('00:30:00'), null)).toBe(false); // not late yet
    const told = await Promise.all(
      Array.from({ length: 20 }, (_, i) => alertLateChargeDay(d.deps, at('01:05:00') + i, 'database is locked')),
    );
    expect(told.filter(Boolean)).toHaveLength(1);
    expect(await alertLateChargeDay(d.deps, at('02:00:00'), null)).toBe(false);

    const sent = await d.db
      .selectFrom('notifications')
      .select(['user_id', 'message'])
      .where('kind', '=', 'daily_charge_late')
      .orderBy('user_id')
      .execute();
    expect(sent.map((n) => n.user_id)).toEqual([op1.id, op2.id]);
    expect(sent[0].message).toContain(`The daily charge for ${DAY} did not complete by 01:00 UTC`);
    expect(sent[0].message).toContain('database is locked');
    expect(sent.some((n) => n.user_id === customer.id)).toBe(false);
  });

  it('the console overview shows the late charge and the failing jobs it is given', async () => {
    const d = await deps();
    const failing = [{ name: 'deposits.watch', failures: 4, last_error: 'connection refused', since: at('01:00:00') }];
    const o = await consoleOverview(d.db, at('01:10:00'), [
      { ...failing[0], since: new Date(failing[0].since).toISOString() },
    ]);
    expect(o.daily_charge_late).toBe(`daily charge for ${DAY} not completed`);
    expect(o.failing_jobs.map((j) => j.name)).toEqual(['deposits.watch']);
    const early = await consoleOverview(d.db, at('00:10:00'));
    expect(early.daily_charge_late).toBeNull();
    expect(early.failing_jobs).toEqual([]);
  });
});

describe('the deposit watch', () => {
  it('fails its run when an enabled currency’s daemon does not answer, so it shows as failing; a disabled one does not', async () => {
    const d = await deps();
    await d.db
      .insertInto('deposit_currencies')
      .values({
        id: 'ltc-gone',
        label: 'Litecoin',
        ticker: 'LTC',
        kind: 'bitcoin',
        confirmations: 3,
        minimum: 10_000,
        price_coin: 'litecoin',
        decimals: 8,
        rpc_url: 'http://127.0.0.1:1',
        watch_from: 0,
        created_at: Date.now(),
      })
      .execute();
    // The daemon as this tier sees it (no sockets here): it does not answer. The real
    // daemon's failures are test/peers/deposits-litecoind's subject.
    const gone: Sources = {
      bitcoin: () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
      monero: () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
    };
    const watch = () => watchDeposits(d.deps, undefined, gone);
    await expect(watch()).rejects.toThrow(/^no answer read from ltc-gone \(/);
    await d.db.updateTable('deposit_currencies').set({ enabled: 0 }).where('id', '=', 'ltc-gone').execute();
    await expect(watch()).resolves.toBeUndefined();
  });
});
