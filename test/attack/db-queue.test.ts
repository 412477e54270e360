import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/server/db/open';
import { tempDataDir } from '../support/server';

// A flood that queues thousands of queries (10 sockets of refused subscriptions did)
// held the event loop for seconds: Kysely's SQLite mutex woke every waiter on each
// release, n² wake-ups for n queued queries. The queue must cost its length.
let dir: string;
let db: DB;
beforeAll(() => {
  dir = tempDataDir('nodekeep-dbq-');
  db = openDatabase(path.join(dir, 'nodekeep.db'));
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('runs 10,000 queued queries in linear time, in order, with transactions among them', async () => {
  await sql`create table t (n integer)`.execute(db);
  const order: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10_000 }, (_, i) =>
      i % 1000 === 500
        ? db.transaction().execute(async (trx) => {
            await sql`insert into t (n) values (${i})`.execute(trx);
            await sql`insert into t (n) values (${-i})`.execute(trx);
            order.push(i);
          })
        : sql`select ${i} as n`.execute(db).then(() => order.push(i)),
    ),
  );
  const ms = performance.now() - started;
  // Before: 6 s and more (20,000 took 35 s); now well under one here, with room for a loaded machine.
  expect(ms).toBeLessThan(4500);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  const rows = await sql<{ c: number }>`select count(*) as c from t`.execute(db);
  expect(rows.rows[0].c).toBe(20);
});
