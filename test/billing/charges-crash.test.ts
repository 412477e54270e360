import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { migrateToLatest, openDatabase, type DB } from '../../src/server/db/open';
import { DAY_MS, dayOf, dayStart } from '../../src/server/billing/charge-days';
import { chargeMismatches } from '../../src/server/billing/charge-queries';
import { PLATFORM, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { tempDataDir } from '../support/server';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// Exactly once under crashes: the daily charge (two missed days and today, with owners
// who cannot pay everything) runs in a child process that is killed with SIGKILL at
// random points 20 times, then finishes in two processes at once. The outcome must be
// the very one of an uninterrupted run on a copy of the same data: the same node fees
// (each node charged once per day it owes), the same owner transfers holding their sums,
// the same nodes destroyed, the counters whole.

const dir = tempDataDir('nodekeep-crash-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TODAY = '2026-11-20';
const NOW = Date.parse(`${TODAY}T00:00:40.000Z`);
const NODES = 1500;
const USERS = 60;
const CHUNK = 40;

async function seed(file: string): Promise<void> {
  const db = openDatabase(file);
  await migrateToLatest(db);
  await importCatalog(db, bundledCatalogPath(), 'seed');
  const created = dayStart(TODAY) - 10 * DAY_MS;
  await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${USERS})
    INSERT INTO users (id, username, username_key, email, email_key, password_hash, room_id, qr_key, created_at)
    SELECT i, 'crash' || i, 'crash' || i, 'crash' || i || '@example.test', 'crash' || i || '@example.test', 'x', 'room' || i, 'qr' || i, ${created} FROM u`.execute(
    db,
  );
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${NODES})
    INSERT INTO nodes (mn_id, user_id, coin_id, package, state, hosting_price, created_at, state_at)
    SELECT 'dash-crash' || i, 1 + (i % ${USERS}), 'dash', 'dedicated', 'live', 100000 + (i % 7) * 10000, ${created}, ${created} FROM n`.execute(
    db,
  );
  // Most owners can pay the three days; every fifth can pay about a day and a half.
  await db.transaction().execute(async (trx) => {
    for (let u = 1; u <= USERS; u++) {
      const daily = (
        await sql<{ d: number }>`SELECT sum(hosting_price) AS d FROM nodes WHERE user_id = ${u}`.execute(trx)
      ).rows[0].d;
      const amount = u % 5 === 0 ? Math.floor(daily * 1.5) : daily * 4;
      await postTransfer(trx, {
        idempotencyKey: `seed:${u}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(u),
        amount,
        kind: 'adjustment',
        description: 'seed',
        quiet: true,
      });
    }
  });
  await db
    .insertInto('charge_days')
    .values({ day: dayOf(dayStart(TODAY) - 3 * DAY_MS), started_at: 0, completed_at: 0 })
    .execute();
  await db.destroy();
}

function child(file: string): {
  proc: ChildProcess;
  lines: string[];
  ready: Promise<void>;
  exit: Promise<number | string>;
} {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/charge-process.ts', file, String(NOW), String(CHUNK)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  let signalReady!: () => void;
  const ready = new Promise<void>((r) => (signalReady = r));
  let buf = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      if (l === 'ready') signalReady();
    }
  });
  const exit = new Promise<number | string>((resolve) => proc.on('exit', (code, sig) => resolve(sig ?? code ?? -1)));
  exit.then(() => signalReady());
  return { proc, lines, ready, exit };
}

type Outcome = {
  keys: string[];
  transfers: string[];
  destroyed: string[];
  balances: Array<{ account: string; b: number }>;
};
async function outcome(db: DB): Promise<Outcome> {
  // Each node's fee for a day (`<node>:<day>`), and the owners' transfers that hold their sums.
  const keys = (
    await db.selectFrom('node_charges').select(['node_id', 'day']).orderBy('node_id').orderBy('day').execute()
  ).map((r) => `${r.node_id}:${r.day}`);
  const transfers = (
    await db
      .selectFrom('ledger_transfers')
      .select(['idempotency_key', 'amount'])
      .where('kind', '=', 'daily_charge')
      .orderBy('idempotency_key')
      .execute()
  ).map((r) => `${r.idempotency_key}=${r.amount}`);
  const destroyed = (
    await db.selectFrom('nodes').select('mn_id').where('state', '=', 'deleting').orderBy('mn_id').execute()
  ).map((r) => r.mn_id);
  const balances = (
    await sql<{
      account: string;
      b: number;
    }>`SELECT account, credits - debits AS b FROM ledger_accounts ORDER BY account`.execute(db)
  ).rows;
  return { keys, transfers, destroyed, balances };
}

it(
  'SIGKILLed at 20 random points and rerun (twice at once), charges each node once per day: the same outcome as one clean run',
  { timeout: scaled(240_000) },
  async () => {
    const crashed = path.join(dir, 'crashed.sqlite');
    const clean = path.join(dir, 'clean.sqlite');
    await seed(crashed);
    fs.copyFileSync(crashed, clean);

    // The clean reference run.
    const ref = child(clean);
    expect(await ref.exit).toBe(0);
    expect(ref.lines.at(-1)).toBe('done');
    const totalChunks = ref.lines.filter((l) => l.startsWith('chunk')).length;
    expect(totalChunks).toBeGreaterThan(100);

    const kills: Array<{ afterMs: number; chunks: number; finished: boolean }> = [];
    for (let i = 0; i < 20; i++) {
      const c = child(crashed);
      await c.ready;
      // After a random few committed chunks (0-4), then a random few milliseconds into the
      // next one: each kill leaves work for the next (a clean run has over 100 chunks), so
      // the kills land inside the run on a fast machine as on a slow one, often mid-transaction.
      const target = Math.floor(Math.random() * 5);
      let exited = false;
      void c.exit.then(() => (exited = true));
      while (!exited && c.lines.filter((l) => l.startsWith('chunk')).length < target)
        await new Promise((r) => setTimeout(r, 1));
      const afterMs = Math.floor(Math.random() * 8);
      await new Promise((r) => setTimeout(r, afterMs));
      c.proc.kill('SIGKILL');
      const how = await c.exit;
      kills.push({ afterMs, chunks: c.lines.filter((l) => l.startsWith('chunk')).length, finished: how === 0 });
    }
    // Most kills must land inside the run, or the test proves little.
    expect(kills.filter((k) => !k.finished).length, JSON.stringify(kills)).toBeGreaterThanOrEqual(15);

    // Finish: two processes at once.
    const [a, b] = [child(crashed), child(crashed)];
    expect([await a.exit, await b.exit]).toEqual([0, 0]);

    const dbc = openDatabase(crashed);
    const dbr = openDatabase(clean);
    try {
      const got = await outcome(dbc);
      const want = await outcome(dbr);
      // Each node charged once for each day it owes: 3 days for all but the destroyed ones.
      expect(new Set(got.keys).size).toBe(got.keys.length);
      expect(got.destroyed.length).toBeGreaterThan(0);
      expect(got.keys.length).toBeLessThan(3 * NODES);
      expect(got).toEqual(want);
      for (const [k, n] of Object.entries(countByNode(got.keys))) expect(n, k).toBeLessThanOrEqual(3);
      expect(await ledgerMismatches(dbc)).toEqual([]);
      expect(await chargeMismatches(dbc)).toEqual([]);
      const days = await dbc.selectFrom('charge_days').select(['day', 'completed_at']).orderBy('day').execute();
      expect(days.every((d) => d.completed_at !== null)).toBe(true);
      console.log(`crash test: ${totalChunks} chunks per clean run; kills ${JSON.stringify(kills)}`);
    } finally {
      await dbc.destroy();
      await dbr.destroy();
    }
  },
);

function countByNode(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) {
    const node = k.split(':')[0];
    out[node] = (out[node] ?? 0) + 1;
  }
  return out;
}
