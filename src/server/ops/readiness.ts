import { migrationState, type DB } from '../db/open';
import { errorText } from '../jobs/attempt';
import { mailBacklog } from '../mail/outbox';
import { probeWrite } from './probe-queries';

/** A loop's own answer: null while it turns, else why not ("stopped", "no tick for 12 s"). */
export type LoopHealth = () => string | null | Promise<string | null>;

export type ReadinessDeps = {
  db: DB;
  /** The server's loops and duties by name (job_runner, fleet_control_loop, monitor, mail_outbox, recurring_jobs, daily_charge). */
  loops: Record<string, LoopHealth>;
  /** Pending mail due longer ago than this means nothing is sending it (default 15 min). */
  mailOverdueMs?: number;
  /** The write probe's wait for another process's lock (default 250 ms). */
  busyMs?: number;
  /** The whole database check, queue for the connection included (default 2 s). */
  databaseTimeoutMs?: number;
};

export type CheckResult = { ok: boolean; error?: string };
export type Readiness = { ok: boolean; failed: string[]; checks: Record<string, CheckResult> };

const MAIL_OVERDUE_MS = 15 * 60_000;

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function check(f: () => Promise<string | null> | string | null): Promise<CheckResult> {
  try {
    const error = await f();
    return error === null ? { ok: true } : { ok: false, error };
  } catch (err) {
    return { ok: false, error: errorText(err) };
  }
}

/**
 * What /readyz answers: whether this server can do its work now. The database takes a
 * write, its migrations are the ones this code has, and every loop turns. Concurrent
 * probes share one check, and a result is reused for a second: the endpoint is public,
 * and a flood of probes must not become a flood of writes.
 */
export function readinessProbe(deps: ReadinessDeps): () => Promise<Readiness> {
  let last: { at: number; result: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;

  async function run(): Promise<Readiness> {
    const { db } = deps;
    const checks: Record<string, CheckResult> = {
      database: await check(async () => {
        await within(deps.databaseTimeoutMs ?? 2_000, 'the write probe', probeWrite(db, deps.busyMs ?? 250));
        return null;
      }),
      migrations: await check(async () => {
        const { pending, unknown } = await migrationState(db);
        if (pending.length) return `not applied: ${pending.join(', ')}`;
        if (unknown.length) return `applied by a newer version: ${unknown.join(', ')}`;
        return null;
      }),
    };
    for (const [name, health] of Object.entries(deps.loops)) checks[name] = await check(health);
    // The outbox: a loop may turn and still leave mail behind (its jobs lost): mail long past due says so.
    const mail = checks.mail_outbox;
    if (mail?.ok) {
      checks.mail_outbox = await check(async () => {
        const { oldestDueAt } = await mailBacklog(db);
        const overdue = oldestDueAt === null ? 0 : Date.now() - oldestDueAt;
        return overdue > (deps.mailOverdueMs ?? MAIL_OVERDUE_MS)
          ? `the oldest pending mail has waited ${Math.round(overdue / 60_000)} min past its time`
          : null;
      });
    }
    const failed = Object.entries(checks)
      .filter(([, r]) => !r.ok)
      .map(([name]) => name);
    return { ok: failed.length === 0, failed, checks };
  }

  return () => {
    if (last && Date.now() - last.at < 1_000) return Promise.resolve(last.result);
    running ??= run()
      .then((result) => {
        last = { at: Date.now(), result };
        return result;
      })
      .finally(() => (running = undefined));
    return running;
  };
}
