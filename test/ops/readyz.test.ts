import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

type Body = { ok: boolean; failed: string[]; checks: Record<string, { ok: boolean; error?: string }> };

async function readyz(s: TestServer): Promise<{ status: number; body: Body; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${s.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Body, ms: performance.now() - t0 };
}

/** /readyz reuses a result for a second: ask until it says what we wait for. */
async function readyzUntil(s: TestServer, pred: (r: Awaited<ReturnType<typeof readyz>>) => boolean, ms = 8_000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await readyz(s);
    if (pred(r)) return r;
    if (Date.now() > end) throw new Error(`readyz never matched; last: ${r.status} ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('GET /readyz against a running server', () => {
  let s: TestServer;
  let other: SQLite.Database | undefined;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    other?.close();
    await stopTestServer(s);
  });

  it('is ready when the database takes a write, migrations are current and every loop turns', async () => {
    const before = Date.now();
    const r = await readyzUntil(s, (x) => x.status === 200);
    expect(r.body).toEqual({
      ok: true,
      failed: [],
      checks: {
        database: { ok: true },
        migrations: { ok: true },
        job_runner: { ok: true },
        fleet_control_loop: { ok: true },
        monitor: { ok: true },
        mail_outbox: { ok: true },
      },
    });
    // The write really happened.
    const row = await s.deps.db.selectFrom('readiness_probe').selectAll().executeTakeFirstOrThrow();
    expect(row.at).toBeGreaterThanOrEqual(before);
    // /healthz stays the cheap liveness answer.
    expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ ok: true });
  });

  it('answers 503 naming the database when another process holds the write lock, and quickly', async () => {
    other = new SQLite(path.join(s.dataDir, 'nodekeep.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    const r = await readyzUntil(s, (x) => x.status === 503);
    expect(r.body.ok).toBe(false);
    expect(r.body.failed).toEqual(['database']);
    expect(r.body.checks.database.error).toMatch(/locked|busy/i);
    // The short busy timeout, not the server's 5 s one.
    const timed = await readyzUntil(s, (x) => x.status === 503 && x.ms > 0);
    expect(timed.ms).toBeLessThan(4_500);
    other.exec('ROLLBACK');
    other.close();
    other = undefined;
    await readyzUntil(s, (x) => x.status === 200);
  });

  it('answers 503 naming migrations when the database was migrated by a newer version', async () => {
    await s.deps.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2099-01-01T0000-from-the-future', timestamp: new Date().toISOString() } as never)
      .execute();
    const r = await readyzUntil(s, (x) => x.status === 503);
    expect(r.body.failed).toEqual(['migrations']);
    expect(r.body.checks.migrations.error).toContain('2099-01-01T0000-from-the-future');
    await s.deps.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '2099-01-01T0000-from-the-future' as never)
      .execute();
    await readyzUntil(s, (x) => x.status === 200);
  });

  it('answers 503 naming the mail outbox when pending mail is long past due (its jobs lost)', async () => {
    const now = Date.now();
    const { id } = await s.deps.db
      .insertInto('mail_outbox')
      .values({
        to_addr: 'stuck@example.test',
        subject: 's',
        text: 't',
        status: 'pending',
        next_attempt_at: now - 20 * 60_000,
        created_at: now - 20 * 60_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await readyzUntil(s, (x) => x.status === 503);
    expect(r.body.failed).toEqual(['mail_outbox']);
    expect(r.body.checks.mail_outbox.error).toMatch(/20 min/);
    await s.deps.db.updateTable('mail_outbox').set({ status: 'failed' }).where('id', '=', id).execute();
    await readyzUntil(s, (x) => x.status === 200);
  });

  it('answers 100 concurrent probes alike', async () => {
    const all = await Promise.all(Array.from({ length: 100 }, () => readyz(s)));
    expect(new Set(all.map((r) => r.status))).toEqual(new Set([200]));
  });

  it('answers 503 naming the monitor when it stopped', async () => {
    await s.fleet.monitor.stop();
    const r = await readyzUntil(s, (x) => x.status === 503);
    expect(r.body.failed).toEqual(['monitor']);
    expect(r.body.checks.monitor.error).toBe('stopped');
  });

  it('answers 503 naming the job runner, the control loop and the mail outbox when the runner stopped', async () => {
    await s.jobs.stop(0);
    const r = await readyzUntil(s, (x) => x.status === 503 && x.body.failed.includes('job_runner'));
    expect(r.body.failed).toEqual(['job_runner', 'fleet_control_loop', 'monitor', 'mail_outbox']);
    expect(r.body.checks.fleet_control_loop.error).toBe('stopped');
  });
});
