import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { DAY_MS, dayStart } from '../src/server/billing/charge-days';
import { chargeOneDay } from '../src/server/billing/daily-charge';
import { remindLowBalances } from '../src/server/billing/reminders';
import { ledgerMismatches } from '../src/server/billing/ledger';
import { chargeMismatches } from '../src/server/billing/charge-queries';
import { bundledCatalogPath, importCatalog } from '../src/server/coins/import';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import { createLogger } from '../src/server/kernel/log';
import { machine, writeSection } from './report';

/**
 * The daily charge of CHARGE_BENCH_NODES nodes (default 1,000,000; CHARGE_BENCH_PER_OWNER
 * per owner, default 10, an owner's nodes scattered over the ids as when owners deploy at
 * different times; every owner able to pay) with their ledger entries, against a bare set-based UPDATE of the
 * same node rows in the same run, and the charge's peak memory. On a real SQLite file.
 */
export async function benchDailyCharge(): Promise<{
  ratio: number;
  bareMs: number;
  chargeMs: number;
  cpuRatio: number;
}> {
  const nodes = Number(process.env.CHARGE_BENCH_NODES ?? 1_000_000);
  const perUser = Number(process.env.CHARGE_BENCH_PER_OWNER ?? 10);
  const users = Math.ceil(nodes / perUser);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-bench-charge-'));
  const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
  try {
    await migrateToLatest(db);
    await importCatalog(db, bundledCatalogPath(), 'seed');
    const day = '2026-11-20';
    const start = dayStart(day);
    const created = start - 5 * DAY_MS;
    const t0 = performance.now();
    await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${users})
      INSERT INTO users (id, username, username_key, email, email_key, password_hash, room_id, qr_key, created_at)
      SELECT i, 'b' || i, 'b' || i, 'b' || i || '@example.test', 'b' || i || '@example.test', 'x', 'r' || i, 'q' || i, ${created} FROM u`.execute(
      db,
    );
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${nodes - 1})
      INSERT INTO nodes (mn_id, user_id, coin_id, package, state, hosting_price, created_at, state_at)
      SELECT 'dash-b' || i, 1 + i % ${users}, 'dash', 'dedicated', 'live', 330000, ${created}, ${created} FROM n`.execute(
      db,
    );
    // Funding as ordinary transfers (the counters move by the trigger as in production).
    await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${users})
      INSERT INTO ledger_transfers (idempotency_key, debit_account, credit_account, amount, kind, description, created_at)
      SELECT 'fund:' || i, 'platform:adjustments', 'user:' || i, 100000000, 'adjustment', 'bench funds', ${created} FROM u`.execute(
      db,
    );
    // Before each timed phase: the WAL copied back and the machine's dirty pages written
    // out, so no phase pays for the writes of the one before it.
    const settle = async () => {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
      execFileSync('sync');
    };
    await settle();
    const seedMs = performance.now() - t0;
    const progress = (what: string) =>
      console.error(`[daily charge bench] ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    progress('seeded');

    // The bare set-based UPDATE: the same rows, one statement, no ledger (then undone, untimed).
    const cpu = (from?: NodeJS.CpuUsage) => {
      const u = process.cpuUsage(from);
      return (u.user + u.system) / 1000;
    };
    const b0 = performance.now();
    const bareCpu0 = process.cpuUsage();
    const bare =
      await sql`UPDATE nodes SET start_claim_at = ${start} WHERE created_at < ${start} AND failed_reason IS NULL AND (deleted_at IS NULL OR deleted_at > ${start}) AND hosting_price > 0`.execute(
        db,
      );
    const bareMs = performance.now() - b0;
    const bareCpuMs = cpu(bareCpu0);
    progress(`bare UPDATE ${(bareMs / 1000).toFixed(2)} s`);
    await sql`UPDATE nodes SET start_claim_at = NULL`.execute(db);
    await settle();

    globalThis.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peakRss = rss0;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    // Longest gap between two event-loop turns while the charge runs: what a request could wait.
    let lastTick = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - lastTick);
      lastTick = now;
    }, 5);
    const c0 = performance.now();
    const chargeCpu0 = process.cpuUsage();
    // Time from one committed chunk to the next: about one chunk's transaction, which is what holds SQLite's one writer.
    let lastChunk = c0;
    const chunkMs: number[] = [];
    const onChunk = () => {
      const t = performance.now();
      chunkMs.push(t - lastChunk);
      lastChunk = t;
      if (chunkMs.length % 100 === 0) progress(`${chunkMs.length} chunks`);
    };
    const out = await chargeOneDay({ db, log: createLogger('error'), onChunk }, day, start + 30_000);
    const chargeMs = performance.now() - c0;
    const chargeCpuMs = cpu(chargeCpu0);
    progress('charged');
    // The job's second pass, after the day's charges: low-balance reminders (none due here: all can pay).
    const r0 = performance.now();
    await remindLowBalances({ db }, start + 30_000);
    const remindMs = performance.now() - r0;
    progress('reminders read');
    clearInterval(sampler);
    clearInterval(ticker);
    const written = Number(
      (await sql<{ n: number }>`SELECT count(*) AS n FROM node_charges WHERE day = ${day}`.execute(db)).rows[0].n,
    );
    const transfers = Number(
      (await sql<{ n: number }>`SELECT count(*) AS n FROM ledger_transfers WHERE kind = 'daily_charge'`.execute(db))
        .rows[0].n,
    );
    const summed = (await chargeMismatches(db)).length === 0;
    const whole = (await ledgerMismatches(db)).length === 0;
    const ratio = chargeMs / bareMs;
    chunkMs.sort((a, b) => a - b);
    const pct = (p: number) => chunkMs[Math.min(chunkMs.length - 1, Math.floor(p * chunkMs.length))].toFixed(0);
    const mib = (b: number) => (b / 2 ** 20).toFixed(0);
    const body = `## Daily charge of ${nodes.toLocaleString('en-US')} nodes vs a bare set-based UPDATE

${new Date().toISOString().slice(0, 10)} on ${machine()}; a real SQLite file (WAL), ${users.toLocaleString('en-US')} owners with ${perUser} nodes each, all able to pay. Node count from \`CHARGE_BENCH_NODES\` (default 1,000,000). Seeding took ${(seedMs / 1000).toFixed(1)} s (not measured).

| run | rows | seconds | rows/s |
|---|---|---|---|
| bare set-based \`UPDATE nodes … WHERE <charged that day>\` (one statement, no ledger) | ${Number(bare.numAffectedRows ?? 0).toLocaleString('en-US')} | ${(bareMs / 1000).toFixed(2)} | ${Math.round(Number(bare.numAffectedRows ?? 0) / (bareMs / 1000)).toLocaleString('en-US')} |
| daily charge (whole owners, about 1,000 nodes per transaction: a fee row per node keyed by node and day, one ledger transfer per owner with both accounts' counters moved by trigger, the balance check, the cursor, each owner's live events) | ${out.charged.toLocaleString('en-US')} | ${(chargeMs / 1000).toFixed(2)} | ${Math.round(out.charged / (chargeMs / 1000)).toLocaleString('en-US')} |
| low-balance reminders pass (the job's second pass after the charges: every owner's balance against their fees, windows of 1,000 owners) | ${users.toLocaleString('en-US')} owners | ${(remindMs / 1000).toFixed(2)} | ${Math.round(users / (remindMs / 1000)).toLocaleString('en-US')} |

The daily charge takes ${ratio.toFixed(1)}× the bare UPDATE (goal: within 2×): ${ratio <= 2 ? 'meets the goal' : 'misses the goal'}. In CPU time of this process (user and system, which another process on the machine moves less than wall time): ${(chargeCpuMs / 1000).toFixed(2)} s against ${(bareCpuMs / 1000).toFixed(2)} s, ${(chargeCpuMs / bareCpuMs).toFixed(1)}×. ${written.toLocaleString('en-US')} node fees and ${transfers.toLocaleString('en-US')} owner transfers written; ${summed ? "each transfer equals its nodes' fees" : "transfers DIFFER from their nodes' fees"}; ledger counters ${whole ? 'equal the sums of the transfers' : 'DIFFER from the transfers'}. Peak memory during the charge: RSS ${mib(peakRss)} MiB (${mib(rss0)} MiB before it), JS heap ${mib(peakHeap)} MiB. Longest pause of the event loop while it ran: ${maxGap.toFixed(0)} ms. Chunk to chunk (about one transaction of 1,000 nodes, the longest a request waits for the writer): median ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms, over ${chunkMs.length.toLocaleString('en-US')} chunks.
`;
    writeSection('daily_charge', body);
    console.log(body);
    return { ratio, bareMs, chargeMs, cpuRatio: chargeCpuMs / bareCpuMs };
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDailyCharge();
