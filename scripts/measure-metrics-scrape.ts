import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import { registerBusinessMetrics } from '../src/server/ops/business-metrics';

/**
 * How long one /metrics scrape of the business metrics takes on a large database:
 * METRICS_ROWS ledger transfers (default 100,000: deposits, then a daily charge per
 * owner per day for the days it takes), one user per 5 transfers, a deposit row per 5 and a mail
 * row per 20. Run: `npx tsx scripts/measure-metrics-scrape.ts` (METRICS_PLANS=1 also prints
 * the query plans and times of the counts). Prints the scrape times and the values.
 */
const rows = Number(process.env.METRICS_ROWS ?? 100_000);
const users = Math.ceil(rows / 5);
// Inlined: better-sqlite3 binds JS numbers as REAL, and 'user:' || 1.0 names no account.
const U = sql.raw(String(users));
const DAY = 86_400_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-metrics-'));
const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
try {
  await migrateToLatest(db);
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${users})
    INSERT INTO users (id, username, username_key, email, email_key, password_hash, room_id, qr_key, created_at, verified_at)
    SELECT i, 'm' || i, 'm' || i, 'm' || i || '@example.test', 'm' || i || '@example.test', 'x', 'r' || i, 'q' || i, ${now}, CASE WHEN i % 7 THEN ${now} END FROM u`.execute(
    db,
  );
  // One deposit per user, then daily charges spread over the last 30 days up to `rows` transfers.
  await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${users})
    INSERT INTO ledger_transfers (idempotency_key, debit_account, credit_account, amount, kind, description, created_at)
    SELECT 'dep:' || i, 'platform:crypto_clearing', 'user:' || i, 100000000, 'crypto_deposit', 'deposit', ${today - 31 * DAY} FROM u`.execute(
    db,
  );
  await sql`WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM t WHERE i < ${rows - users - 1})
    INSERT INTO ledger_transfers (idempotency_key, debit_account, credit_account, amount, kind, description, created_at)
    SELECT 'ch:' || i, 'user:' || (1 + i % ${U}), 'platform:revenue', 330000, 'daily_charge', 'charge', ${today} - (i / ${U}) * ${DAY} + 60000 FROM t`.execute(
    db,
  );
  await sql`INSERT INTO deposit_currencies (id, label, ticker, kind, confirmations, minimum, price_coin, decimals, rpc_url, watch_from, created_at)
    VALUES ('ltc', 'Litecoin', 'LTC', 'bitcoin', 3, 10000, 'litecoin', 8, 'http://127.0.0.1:1', 0, ${now})`.execute(db);
  await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${Math.ceil(rows / 5)})
    INSERT INTO deposits (currency_id, txid, vout, user_id, address, amount, confirmations, state, seen_at, updated_at)
    SELECT 'ltc', 'tx' || i, 0, 1 + i % ${U}, 'a', '0.1', 6, CASE WHEN i % 50 = 0 THEN 'pending' ELSE 'credited' END, ${now}, ${now} FROM u`.execute(
    db,
  );
  await sql`WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < ${Math.ceil(rows / 20)})
    INSERT INTO mail_outbox (to_addr, subject, text, status, next_attempt_at, created_at)
    SELECT 'm' || i || '@example.test', 's', 't', CASE WHEN i % 100 = 0 THEN 'pending' ELSE 'sent' END, ${now}, ${now} FROM u`.execute(
    db,
  );
  await sql`ANALYZE`.execute(db);

  if (process.env.METRICS_PLANS) {
    for (const q of [
      sql`EXPLAIN QUERY PLAN SELECT count(*) FILTER (WHERE disabled_at IS NULL AND verified_at IS NOT NULL) FROM users WHERE role = 'customer'`,
      sql`EXPLAIN QUERY PLAN SELECT count(*) FROM deposits WHERE state = 'pending'`,
      sql`EXPLAIN QUERY PLAN SELECT count(*), sum(amount) FROM ledger_transfers WHERE kind = 'daily_charge' AND created_at >= 0 AND created_at < 1`,
    ]) {
      console.log((await q.execute(db)).rows.map((r) => (r as { detail: string }).detail).join('; '));
      const text = q.compile(db).sql.replace('EXPLAIN QUERY PLAN ', '');
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) await sql.raw(text).execute(db);
      console.log(`  ${((performance.now() - t0) / 20).toFixed(2)} ms`);
    }
  }
  const registry = new Registry();
  registerBusinessMetrics(registry, { db, liveConnections: () => 0, liveSubscriptions: () => 0 });
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await registry.metrics();
    times.push(performance.now() - t0);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const total = await db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `ledger_transfers: ${total.n}, users: ${users}, deposits: ${Math.ceil(rows / 5)}, mail: ${Math.ceil(rows / 20)}`,
  );
  console.log(
    `first scrape ${times[0].toFixed(1)} ms; of 20: median ${sorted[10].toFixed(1)} ms, max ${sorted[19].toFixed(1)} ms`,
  );
  console.log(
    (await registry.metrics())
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .join('\n'),
  );
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
