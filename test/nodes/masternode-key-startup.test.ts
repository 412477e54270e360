import fs from 'node:fs';
import path from 'node:path';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { openDatabase } from '../../src/server/db/open';
import { masternodeKeyWif } from '../../src/server/deploy/node-keys';
import { openMasternodeKey } from '../../src/server/nodes/node-secrets';
import { insertTestNode } from '../support/nodes';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser } from '../support/users';

// A data folder written by the version that kept the classic masternode key in plaintext:
// the real server migrates it, seals the key at start-up, and the owner's page shows the
// whole masternode.conf line over real HTTP while another user gets 404.

const dataDir = tempDataDir();
const dbFile = path.join(dataDir, 'nodekeep.sqlite');
const key = masternodeKeyWif(212);
const TX = 'ad'.repeat(32);
let server: TestServer;

class Provider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

beforeAll(async () => {
  const db = openDatabase(dbFile);
  expect(
    (await new Migrator({ db, provider: new Provider() }).migrateTo('2026-11-23T1400-node-lifecycle')).error,
  ).toBeUndefined();
  await importCatalog(db, bundledCatalogPath(), 'seed');
  const { id } = await db
    .insertInto('users')
    .values({
      username: 'before',
      username_key: 'before',
      email: 'before@example.test',
      email_key: 'before@example.test',
      password_hash: 'x',
      verified_at: 1,
      referrer: null,
      room_id: 'r0',
      qr_key: 'q0',
      tfa_secret: null,
      disabled_at: null,
      created_at: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertTestNode(db, {
    mn_id: 'pivx-before1',
    user_id: id,
    coin_id: 'pivx',
    output_text: `mn1 {address} ${key} ${TX} 1`,
    state: 'deleted',
  });
  await db.destroy();
  expect(
    fs.readFileSync(dbFile).toString('latin1') +
      (fs.existsSync(`${dbFile}-wal`) ? fs.readFileSync(`${dbFile}-wal`).toString('latin1') : ''),
  ).toContain(key);
  server = await startTestServer({}, { dataDir });
});
afterAll(() => stopTestServer(server));

const get = async (token: string) => {
  const res = await fetch(`${server.url}/api/get_masternode?masternode=pivx-before1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('a data folder with plaintext masternode keys', () => {
  it('is sealed by the server at start-up; the owner sees the line, another user nothing', async () => {
    const row = await server.deps.db
      .selectFrom('nodes')
      .selectAll()
      .where('mn_id', '=', 'pivx-before1')
      .executeTakeFirstOrThrow();
    expect(row.output_text).toBe(`mn1 {address} - ${TX} 1`);
    expect(openMasternodeKey(server.deps.secrets, row)).toBe(key);
    expect(await server.deps.db.selectFrom('masternode_key_moves').selectAll().execute()).toEqual([]);
    expect(server.logLines.some((l) => l.includes('masternode keys sealed') && l.includes('"count":1'))).toBe(true);
    expect(server.logLines.join('\n')).not.toContain(key);

    // Hand the node to a user who can log in, live again, to read it as its owner.
    const owner = await freshUser(server.deps);
    const other = await freshUser(server.deps);
    await server.deps.db
      .updateTable('nodes')
      .set({ user_id: owner.id, state: 'live' })
      .where('id', '=', row.id)
      .execute();
    const mine = await get(owner.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.setup.commands).toContainEqual({
      label: 'masternode.conf',
      text: `pivx-before1 <ip>:51472 ${key} ${TX} 1`, // not placed: the page names the slot and says why
    });
    const theirs = await get(other.token);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain(key);

    const onDisk = [dbFile, `${dbFile}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
    expect(onDisk).toContain(TX);
    expect(onDisk).not.toContain(key);
  });
});
