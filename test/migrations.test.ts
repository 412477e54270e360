import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import { migrations } from '../migrations/index';
import { tempDataDir } from './support/server';

const dir = tempDataDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  it('run from an empty database, in WAL mode, and a second run applies nothing', async () => {
    const file = path.join(dir, 'm.sqlite');
    const db = openDatabase(file);
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(db)).toEqual([]);
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(mode.rows[0].journal_mode).toBe('wal');
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
    expect(tables.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'email_tokens',
        'mail_outbox',
        'settings',
        'events',
        'ledger_transfers',
        'page_visits',
      ]),
    );
    await db.destroy();
  });

  it('are listed in name order, so the order they run in is the order they were written', () => {
    const names = Object.keys(migrations);
    expect([...names].sort()).toEqual(names);
    const files = fs
      .readdirSync('migrations')
      .filter((f) => f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual(names);
  });

  it('keep ledger transfers immutable', async () => {
    const db = openDatabase(path.join(dir, 'ledger.sqlite'));
    await migrateToLatest(db);
    await db
      .insertInto('ledger_transfers')
      .values({
        idempotency_key: 'k1',
        debit_account: 'a',
        credit_account: 'b',
        amount: 5,
        kind: 't',
        description: 'd',
        created_at: 1,
      })
      .execute();
    await expect(db.updateTable('ledger_transfers').set({ amount: 6 }).execute()).rejects.toThrow(/immutable/);
    await expect(db.deleteFrom('ledger_transfers').execute()).rejects.toThrow(/immutable/);
    await expect(
      db
        .insertInto('ledger_transfers')
        .values({
          idempotency_key: 'k2',
          debit_account: 'a',
          credit_account: 'b',
          amount: 0.5,
          kind: 't',
          description: 'd',
          created_at: 1,
        })
        .execute(),
    ).rejects.toThrow(/CHECK/);
    await db.destroy();
  });
});
