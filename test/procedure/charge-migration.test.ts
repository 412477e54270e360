import path from 'node:path';
import fs from 'node:fs';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { chargeMismatches } from '../../src/server/billing/charge-queries';
import { DAY_MS, dayStart } from '../../src/server/billing/charge-days';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { PLATFORM, accountBalance, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { migrateToLatest, openDatabase } from '../../src/server/db/open';
import { memoryLogger } from '../../src/server/kernel/log';
import { insertTestNode, nodeCharges } from '../support/nodes';
import { tempDataDir } from '../support/server';

// A data folder from before fees were kept per node: each node's daily charge was its own
// transfer `charge:<node>:<day>`, and the day's cursor a node id. Upgraded in the middle
// of a day's run, nothing is charged twice and the day finishes with the new charge.

const BEFORE = '2026-11-23T2040-referrer-id';
const dir = tempDataDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

class Provider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

it('moves the old per-node charges into node fees and finishes an open day without charging any node twice', async () => {
  const db = openDatabase(path.join(dir, 'old.sqlite'));
  try {
    expect((await new Migrator({ db, provider: new Provider() }).migrateTo(BEFORE)).error).toBeUndefined();
    await importCatalog(db, bundledCatalogPath(), 'seed');
    const D = '2026-11-20';
    const D1 = '2026-11-19';
    const created = dayStart(D1) - 5 * DAY_MS;
    const users: number[] = [];
    for (const name of ['olda', 'oldb']) {
      const { id } = await db
        .insertInto('users')
        .values({
          username: name,
          username_key: name,
          email: `${name}@example.test`,
          email_key: `${name}@example.test`,
          password_hash: 'x',
          verified_at: 1,
          room_id: `r${name}`,
          qr_key: `q${name}`,
          created_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.push(id);
    }
    const nodes: Array<{ id: number; user: number }> = [];
    for (let i = 0; i < 6; i++) {
      const user = users[i % 2];
      nodes.push({
        user,
        id: await insertTestNode(db, {
          mn_id: `dash-old${i}`,
          user_id: user,
          coin_id: 'dash',
          state: 'live',
          hosting_price: 330_000,
          created_at: created,
        }),
      });
    }
    await db.transaction().execute(async (trx) => {
      for (const u of users)
        await postTransfer(trx, {
          idempotencyKey: `fund:${u}`,
          debit: PLATFORM.adjustments,
          credit: userAccount(u),
          amount: 10_000_000,
          kind: 'adjustment',
          description: 'funds',
          quiet: true,
        });
      // As the old charge left it: D1 done, D cut after its third node.
      const old = (n: { id: number; user: number }, day: string) =>
        postTransfer(trx, {
          idempotencyKey: `charge:${n.id}:${day}`,
          debit: userAccount(n.user),
          credit: PLATFORM.revenue,
          amount: 330_000,
          kind: 'daily_charge',
          description: `Daily charge: x (${day})`,
          quiet: true,
        });
      for (const n of nodes) await old(n, D1);
      for (const n of nodes.slice(0, 3)) await old(n, D);
    });
    await db
      .insertInto('charge_days')
      .values([
        { day: D1, started_at: 1, completed_at: 2, cursor: nodes[5].id },
        { day: D, started_at: 3, cursor: nodes[2].id },
      ])
      .execute();

    await migrateToLatest(db);
    expect(await db.selectFrom('node_charges').select('day').where('day', '=', D1).execute()).toHaveLength(6);
    expect(await db.selectFrom('node_charges').select('day').where('day', '=', D).execute()).toHaveLength(3);
    expect(
      await db
        .selectFrom('charge_days')
        .select(['cursor', 'cursor_node'])
        .where('day', '=', D)
        .executeTakeFirstOrThrow(),
    ).toEqual({ cursor: 0, cursor_node: 0 });

    const out = await runDailyCharge({ db, log: memoryLogger() }, dayStart(D) + 60_000);
    expect(out).toEqual([{ day: D, charged: 3, destroyed: 0 }]);
    for (const n of nodes) expect((await nodeCharges(db, n.id)).map((c) => c.day)).toEqual([D1, D]);
    for (const u of users) expect(await accountBalance(db, userAccount(u))).toBe(10_000_000 - 2 * 3 * 330_000);
    expect(await chargeMismatches(db)).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  } finally {
    await db.destroy();
  }
});
