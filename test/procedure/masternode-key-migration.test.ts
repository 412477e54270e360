import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { migrateToLatest, openDatabase, type DB } from '../../src/server/db/open';
import { masternodeKeyWif } from '../../src/server/deploy/node-keys';
import { memoryLogger } from '../../src/server/kernel/log';
import { sealMovedMasternodeKeys } from '../../src/server/nodes/key-moves';
import { openMasternodeKey, openNodeSecrets, sealSecrets } from '../../src/server/nodes/node-secrets';
import { secretBoxWithKey } from '../../src/server/secrets/box';
import { parseSecretsKey } from '../../src/server/secrets/key';
import { insertTestNode } from '../support/nodes';
import { tempDataDir } from '../support/server';

// Rows written before the key was sealed kept it in plaintext in output_text. The
// migration (which has no secrets key) moves each key aside; the server seals it at
// start-up, once, and the file keeps no trace of it.

const BEFORE = '2026-11-23T1400-node-lifecycle';
const dir = tempDataDir();
const file = path.join(dir, 'old.sqlite');
const box = secretBoxWithKey(parseSecretsKey(randomBytes(32).toString('hex'))!, 'env');
const otherBox = secretBoxWithKey(parseSecretsKey(randomBytes(32).toString('hex'))!, 'env');
const TX = 'ab'.repeat(32);
const BURN = 'cd'.repeat(32);
let db: DB;
const keys = {
  pivx: masternodeKeyWif(212),
  sin: masternodeKeyWif(191),
  withSecrets: masternodeKeyWif(212),
  foreign: masternodeKeyWif(212),
};
const ids: Record<string, number> = {};

class Provider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

const bytes = () =>
  [file, `${file}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
const node = (id: number) => db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  db = openDatabase(file);
  const r = await new Migrator({ db, provider: new Provider() }).migrateTo(BEFORE);
  expect(r.error).toBeUndefined();
  await importCatalog(db, bundledCatalogPath(), 'seed');
  const { id: userId } = await db
    .insertInto('users')
    .values({
      username: 'old',
      username_key: 'old',
      email: 'old@example.test',
      email_key: 'old@example.test',
      password_hash: 'x',
      verified_at: 1,
      referrer: null,
      room_id: 'r',
      qr_key: 'q',
      tfa_secret: null,
      disabled_at: null,
      created_at: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const add = (
    mn_id: string,
    coin_id: string,
    output_text: string,
    secrets: string | null = null,
    state: 'live' | 'deleted' = 'live',
  ) => insertTestNode(db, { mn_id, user_id: userId, coin_id, output_text, secrets, state });
  // As the old deploy wrote them: the key in plaintext at word 2.
  ids.pivx = await add('pivx-old1', 'pivx', `mn1 {address} ${keys.pivx} ${TX} 1`);
  ids.sin = await add('sin-old1', 'sin', `mn1 {address} ${keys.sin} ${TX} 0 ${BURN}-2`, null, 'deleted');
  ids.withSecrets = await add(
    'pivx-old2',
    'pivx',
    `mn1 {address} ${keys.withSecrets} ${TX} 2`,
    sealSecrets(box, 'pivx-old2', { monero_secret: 'kept' }),
  );
  // Sealed with another key than the server's: it cannot be re-sealed without losing it.
  ids.foreign = await add(
    'pivx-old3',
    'pivx',
    `mn1 {address} ${keys.foreign} ${TX} 3`,
    sealSecrets(otherBox, 'pivx-old3', { monero_secret: 'x' }),
  );
  // Not the classic layout, or already new: untouched.
  ids.dash = await add('dash-old1', 'dash', `mn1 {address} - ${TX} 0 - ${'ef'.repeat(48)} not_active`);
  ids.fresh = await add(
    'pivx-new1',
    'pivx',
    `mn1 {address} - ${TX} 4`,
    sealSecrets(box, 'pivx-new1', { masternode_key: 'Ynew' }),
  );
  expect(bytes()).toContain(keys.pivx);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('old plaintext masternode keys', () => {
  it('the migration moves each key out of output_text, leaving its slot', async () => {
    expect(await migrateToLatest(db)).toEqual(
      Object.keys(migrations).slice(Object.keys(migrations).indexOf(BEFORE) + 1),
    );
    expect((await node(ids.pivx)).output_text).toBe(`mn1 {address} - ${TX} 1`);
    expect((await node(ids.sin)).output_text).toBe(`mn1 {address} - ${TX} 0 ${BURN}-2`);
    expect((await node(ids.dash)).output_text).toBe(`mn1 {address} - ${TX} 0 - ${'ef'.repeat(48)} not_active`);
    expect((await node(ids.fresh)).output_text).toBe(`mn1 {address} - ${TX} 4`);
    const moves = await db.selectFrom('masternode_key_moves').selectAll().orderBy('node_id').execute();
    expect(moves).toEqual([
      { node_id: ids.pivx, masternode_key: keys.pivx },
      { node_id: ids.sin, masternode_key: keys.sin },
      { node_id: ids.withSecrets, masternode_key: keys.withSecrets },
      { node_id: ids.foreign, masternode_key: keys.foreign },
    ]);
  });

  it('the start-up step seals them into the node secrets, keeping what was there, and the file keeps no plaintext', async () => {
    const log = memoryLogger();
    const fresh = (await node(ids.fresh)).secrets;
    expect(await sealMovedMasternodeKeys(db, box, log)).toBe(3);
    expect(openMasternodeKey(box, await node(ids.pivx))).toBe(keys.pivx);
    expect(openMasternodeKey(box, await node(ids.sin))).toBe(keys.sin);
    const merged = await node(ids.withSecrets);
    expect(openMasternodeKey(box, merged)).toBe(keys.withSecrets);
    expect(openNodeSecrets(box, merged)?.moneroSecret).toBe('kept');
    expect((await node(ids.fresh)).secrets).toBe(fresh);
    // The one whose secrets do not open waits, logged, its secrets untouched.
    expect(await db.selectFrom('masternode_key_moves').select('node_id').execute()).toEqual([{ node_id: ids.foreign }]);
    expect(log.lines.some((l) => l.includes('moved masternode key not sealed') && l.includes('pivx-old3'))).toBe(true);
    expect(log.lines.join('\n')).not.toContain(keys.pivx);

    const onDisk = bytes();
    expect(onDisk).toContain(TX);
    for (const k of [keys.pivx, keys.sin, keys.withSecrets]) expect(onDisk).not.toContain(k);
  });

  it('runs again as a no-op, and seals the waiting key once its secrets open', async () => {
    const before = await db.selectFrom('nodes').select(['id', 'secrets', 'output_text']).orderBy('id').execute();
    expect(await sealMovedMasternodeKeys(db, box, memoryLogger())).toBe(0);
    expect(await db.selectFrom('nodes').select(['id', 'secrets', 'output_text']).orderBy('id').execute()).toEqual(
      before,
    );
    // The operator puts the right secrets back (here: sealed with this box).
    await db
      .updateTable('nodes')
      .set({ secrets: sealSecrets(box, 'pivx-old3', { monero_secret: 'x' }) })
      .where('id', '=', ids.foreign)
      .execute();
    expect(await sealMovedMasternodeKeys(db, box, memoryLogger())).toBe(1);
    expect(openMasternodeKey(box, await node(ids.foreign))).toBe(keys.foreign);
    expect(await db.selectFrom('masternode_key_moves').selectAll().execute()).toEqual([]);
    expect(bytes()).not.toContain(keys.foreign);
    expect(await sealMovedMasternodeKeys(db, box, memoryLogger())).toBe(0);
  });
});
