import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { migrateToLatest, openDatabase, type DB } from '../src/server/db/open';
import { DeadlineError } from '../src/server/jobs/attempt';
import { claimJob } from '../src/server/jobs/queries';
import { findJobs, insertJob } from '../src/server/jobs/queue';
import { JobRunner, type JobContext } from '../src/server/jobs/runner';
import { memoryLogger } from '../src/server/kernel/log';
import { tempDataDir } from './support/server';

const testJobs = { 'test.work': z.object({ n: z.number() }) };
type Runner = JobRunner<typeof testJobs, string>;

const dir = tempDataDir();
const file = path.join(dir, 'jobs.sqlite');
let db: DB;
/** A second connection to the same file: stands for the CLI, another process. */
let other: DB;
const runners: Runner[] = [];

beforeAll(async () => {
  db = openDatabase(file);
  await migrateToLatest(db);
  other = openDatabase(file);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await db.deleteFrom('jobs').execute();
});
afterAll(async () => {
  await db.destroy();
  await other.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

function runner(opts: { pollMs?: number; concurrency?: number } = {}): Runner {
  const r = new JobRunner<typeof testJobs, string>(db, memoryLogger(), testJobs, {
    pollMs: opts.pollMs ?? 50,
    concurrency: opts.concurrency,
  });
  runners.push(r);
  return r;
}

describe('queued jobs', () => {
  it('retry with exponential backoff until one succeeds, and the row goes', async () => {
    const r = runner({ pollMs: 10_000 });
    const at: number[] = [];
    r.handle('test.work', {
      deadlineMs: 1000,
      maxAttempts: 5,
      backoffMs: 150,
      async run(_p, ctx) {
        at.push(Date.now());
        if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt}`);
      },
    });
    r.start();
    await r.enqueue('test.work', { n: 1 });
    await expect.poll(() => at.length).toBe(3);
    // Timers never fire early; a millisecond of clock rounding is allowed.
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(149);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(299);
    await expect.poll(async () => (await findJobs(db, 'test.work')).length).toBe(0);
  });

  it('give up after the last attempt and keep the failed row with its error', async () => {
    const r = runner({ pollMs: 10_000 });
    let runs = 0;
    r.handle('test.work', {
      deadlineMs: 1000,
      maxAttempts: 3,
      backoffMs: 20,
      async run() {
        runs++;
        throw new Error('always');
      },
    });
    r.start();
    await r.enqueue('test.work', { n: 1 }, { key: 'k' });
    await expect.poll(async () => (await findJobs(db, 'test.work'))[0]?.state).toBe('failed');
    const [row] = await findJobs(db, 'test.work');
    expect(row).toMatchObject({ attempts: 3, last_error: 'always', owner: null });
    expect(runs).toBe(3);
    // A failed job no longer holds its key.
    expect(await r.enqueue('test.work', { n: 2 }, { key: 'k' })).toBe(true);
  });

  it('a payload that breaks its schema fails at once, without running', async () => {
    const r = runner();
    let runs = 0;
    r.handle('test.work', { deadlineMs: 1000, maxAttempts: 5, backoffMs: 20, run: async () => void runs++ });
    await insertJob(other, 'test.work', JSON.stringify({ n: 'not a number' }));
    r.start();
    await expect.poll(async () => (await findJobs(db, 'test.work'))[0]?.state).toBe('failed');
    expect((await findJobs(db, 'test.work'))[0].last_error).toMatch(/bad payload/);
    expect(runs).toBe(0);
  });

  it('abort an attempt at its deadline, and retry it', async () => {
    const r = runner();
    const reasons: unknown[] = [];
    r.handle('test.work', {
      deadlineMs: 200,
      maxAttempts: 2,
      backoffMs: 50,
      async run(_p, ctx) {
        if (ctx.attempt === 2) return;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        reasons.push(ctx.signal.reason);
        throw ctx.signal.reason;
      },
    });
    r.start();
    const started = Date.now();
    await r.enqueue('test.work', { n: 1 });
    await expect.poll(() => reasons.length).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(199);
    expect(reasons[0]).toBeInstanceOf(DeadlineError);
    await expect.poll(async () => (await findJobs(db, 'test.work')).length).toBe(0);
  });

  it('give up on an attempt that ignores its deadline, so its slot is free for the next job', async () => {
    const r = runner({ concurrency: 1 });
    const done: number[] = [];
    r.handle('test.work', {
      deadlineMs: 150,
      maxAttempts: 1,
      backoffMs: 50,
      async run(p) {
        if (p.n === 1) await new Promise(() => {}); // hangs for ever, deaf to the signal
        done.push(p.n);
      },
    });
    r.start();
    await r.enqueue('test.work', { n: 1 });
    await r.enqueue('test.work', { n: 2 });
    await expect.poll(() => done).toEqual([2]);
    const rows = await findJobs(db, 'test.work');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/deadline/) });
  });

  it('single flight: 100 concurrent enqueues of one key (from two connections) make one job that runs once', async () => {
    const r = runner();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    r.handle('test.work', {
      deadlineMs: 5000,
      maxAttempts: 1,
      backoffMs: 10,
      run: async () => void (runs++, await gate),
    });
    r.start();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2
          ? insertJob(other, 'test.work', JSON.stringify({ n: i }), { key: 'once' })
          : r.enqueue('test.work', { n: i }, { key: 'once' }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await findJobs(db, 'test.work')).toHaveLength(1);
    await expect.poll(() => runs).toBe(1);
    // While it runs, the key still holds.
    expect(await r.enqueue('test.work', { n: 0 }, { key: 'once' })).toBe(false);
    release();
    await expect.poll(async () => (await findJobs(db, 'test.work')).length).toBe(0);
    expect(runs).toBe(1);
    // Finished, the key is free again.
    expect(await r.enqueue('test.work', { n: 0 }, { key: 'once' })).toBe(true);
  });

  it('run a job that another connection (the CLI, another process) queued', async () => {
    const r = runner({ pollMs: 50 });
    const seen: number[] = [];
    r.handle('test.work', { deadlineMs: 1000, maxAttempts: 1, backoffMs: 10, run: async (p) => void seen.push(p.n) });
    r.start();
    await insertJob(other, 'test.work', JSON.stringify({ n: 42 }));
    await expect.poll(() => seen).toEqual([42]);
  });

  it('run again, after its lease, a job whose owner crashed while running it', async () => {
    await insertJob(other, 'test.work', JSON.stringify({ n: 7 }), { key: 'crashed' });
    const [job] = await findJobs(other, 'test.work');
    // A process claims it and dies: nobody will ever finish or release this claim.
    const leaseUntil = Date.now() + 400;
    expect(await claimJob(other, job.id, 'dead-process', Date.now(), leaseUntil)).toMatchObject({
      state: 'running',
      attempts: 1,
    });
    const r = runner({ pollMs: 50 });
    const runs: { attempt: number; at: number }[] = [];
    r.handle('test.work', {
      deadlineMs: 1000,
      maxAttempts: 3,
      backoffMs: 10,
      run: async (_p, ctx: JobContext) => void runs.push({ attempt: ctx.attempt, at: Date.now() }),
    });
    r.start();
    await expect.poll(() => runs.length).toBe(1);
    expect(runs[0].attempt).toBe(2);
    expect(runs[0].at).toBeGreaterThanOrEqual(leaseUntil);
    await expect.poll(async () => (await findJobs(db, 'test.work')).length).toBe(0);
  });

  it('run again, after its lease, a job claimed by a process that was killed', async () => {
    await insertJob(other, 'test.work', JSON.stringify({ n: 8 }), { key: 'killed' });
    const started = Date.now();
    const child = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/support/job-process.ts', 'claim-and-crash', file, 'test.work', '1500'],
      { timeout: 60_000 },
    ).catch((e) => e);
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout).toBe('claimed 1\n');
    const [claimed] = await findJobs(db, 'test.work');
    expect(claimed).toMatchObject({ state: 'running', attempts: 1, owner: expect.stringMatching(/^pid-/) });
    const r = runner({ pollMs: 50 });
    const runs: { attempt: number; at: number }[] = [];
    r.handle('test.work', {
      deadlineMs: 1000,
      maxAttempts: 3,
      backoffMs: 10,
      run: async (_p, ctx) => void runs.push({ attempt: ctx.attempt, at: Date.now() }),
    });
    r.start();
    await expect.poll(() => runs.length, { timeout: 10_000 }).toBe(1);
    expect(runs[0]).toMatchObject({ attempt: 2 });
    expect(runs[0].at).toBeGreaterThanOrEqual(claimed.run_at);
    expect(claimed.run_at).toBeGreaterThanOrEqual(started + 1500);
    await expect.poll(async () => (await findJobs(db, 'test.work')).length).toBe(0);
  });

  it('shutdown waits for a running job, and aborts one that outlives its deadline', async () => {
    const r = runner({ concurrency: 2 });
    const log: string[] = [];
    r.handle('test.work', {
      deadlineMs: 300,
      maxAttempts: 3,
      backoffMs: 60_000,
      async run(p, ctx) {
        if (p.n === 1) {
          await new Promise((res) => setTimeout(res, 100));
          log.push('quick done');
          return;
        }
        await new Promise<void>((res) => ctx.signal.addEventListener('abort', () => res()));
        log.push('slow aborted');
        throw ctx.signal.reason;
      },
    });
    r.start();
    await r.enqueue('test.work', { n: 1 }, { key: 'quick' });
    await r.enqueue('test.work', { n: 2 }, { key: 'slow' });
    await expect.poll(() => r.busy).toBe(2);
    const t0 = Date.now();
    await r.stop();
    // Up to the deadline and the grace after it, not more.
    expect(Date.now() - t0).toBeLessThan(300 + 1000 + 1000);
    expect(log.sort()).toEqual(['quick done', 'slow aborted']);
    const rows = await findJobs(db, 'test.work');
    expect(rows.map((j) => [j.key, j.state])).toEqual([['slow', 'queued']]);
  });
});

describe('shutdown and giving up', () => {
  it('shutdown aborts a long job after its grace, not at its (five-minute) deadline', async () => {
    const r = runner();
    let reason: unknown;
    r.handle('test.work', {
      deadlineMs: 300_000,
      maxAttempts: 3,
      backoffMs: 60_000,
      async run(_p, ctx) {
        await new Promise<void>((res) => ctx.signal.addEventListener('abort', () => res()));
        reason = ctx.signal.reason;
        throw ctx.signal.reason;
      },
    });
    r.start();
    await r.enqueue('test.work', { n: 1 }, { key: 'long' });
    await expect.poll(() => r.busy).toBe(1);
    const t0 = Date.now();
    await r.stop(200);
    expect(Date.now() - t0).toBeLessThan(200 + 1000 + 1000);
    expect(String(reason)).toMatch(/shutting down/);
    // Cut short, not failed: it runs again at the next start.
    expect((await findJobs(db, 'test.work')).map((j) => j.state)).toEqual(['queued']);
  });

  it("tells the job's domain when it gives up, even without running it (attempts used up by crashed owners)", async () => {
    await insertJob(other, 'test.work', JSON.stringify({ n: 9 }), { key: 'doomed' });
    const [job] = await findJobs(other, 'test.work');
    expect(await claimJob(other, job.id, 'dead-process', Date.now(), Date.now() + 100)).toMatchObject({ attempts: 1 });
    const r = runner();
    const gaveUp: { n: number; error: string }[] = [];
    let runs = 0;
    r.handle('test.work', {
      deadlineMs: 1000,
      maxAttempts: 1,
      backoffMs: 10,
      run: async () => void runs++,
      onGiveUp: async (p, error) => void gaveUp.push({ n: p.n, error }),
    });
    r.start();
    await expect.poll(() => gaveUp.length).toBe(1);
    expect(gaveUp[0].n).toBe(9);
    expect(runs).toBe(0);
    expect((await findJobs(db, 'test.work'))[0].state).toBe('failed');
  });
});

describe('recurring jobs', () => {
  it('fire on a cron schedule (seconds field)', async () => {
    const r = runner();
    const at: number[] = [];
    r.every('test.cron', { cron: '* * * * * *', deadlineMs: 500, run: async () => void at.push(Date.now()) });
    r.start();
    await expect.poll(() => at.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    // One run per second of the clock.
    expect(Math.floor(at[1] / 1000)).toBeGreaterThan(Math.floor(at[0] / 1000));
  });

  it('fire every interval and at start, with single flight: 100 triggers during a run make one more run', async () => {
    const r = runner();
    let runs = 0;
    let inside = 0;
    let most = 0;
    let release!: () => void;
    let gate = new Promise<void>((res) => (release = res));
    r.every('test.every', {
      everyMs: 30,
      atStart: true,
      deadlineMs: 5000,
      async run() {
        runs++;
        most = Math.max(most, ++inside);
        await gate;
        inside--;
      },
    });
    r.start();
    await expect.poll(() => runs).toBe(1);
    const triggers = Array.from({ length: 100 }, () => r.trigger('test.every'));
    const first = release;
    gate = new Promise<void>((res) => (release = res));
    first();
    await expect.poll(() => runs).toBe(2);
    release();
    await Promise.all(triggers);
    expect(most).toBe(1);
    // The interval keeps it going.
    await expect.poll(() => runs).toBeGreaterThan(2);
  });

  it('reject a bad cron pattern when registered', () => {
    expect(() => runner().every('bad', { cron: 'every tuesday', deadlineMs: 100, run: async () => {} })).toThrow();
  });
});
