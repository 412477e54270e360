import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DB } from '../src/server/db/open';
import { enqueueMail } from '../src/server/mail/outbox';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';

let s: TestServer;
let dbFile: string;

/** Runs test/support/job-process.ts: a real second process on the same database file. */
async function otherProcess(...args: string[]) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/job-process.ts', ...args], {
    timeout: 60_000,
  }).catch((err) => err);
}
/** The operator CLI's connection: another writer on the same file. */
let cli: DB;

beforeAll(async () => {
  const dataDir = tempDataDir();
  // Rows from before this start: a month-old visit must be gone once the server runs.
  const before = openDatabase(path.join(dataDir, 'nodekeep.sqlite'));
  await migrateToLatest(before);
  const { id } = await before
    .insertInto('users')
    .values({
      username: 'old',
      username_key: 'old',
      email: 'old@example.test',
      email_key: 'old@example.test',
      password_hash: 'x',
      room_id: 'r-old',
      qr_key: 'q',
      verified_at: null,
      referrer: null,
      tfa_secret: null,
      disabled_at: null,
      created_at: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await before
    .insertInto('page_visits')
    .values([
      { user_id: id, path: '/ancient', at: Date.now() - 60 * 86_400_000 },
      { user_id: id, path: '/today', at: Date.now() },
    ])
    .execute();
  await before.destroy();
  s = await startTestServer({}, { dataDir });
  dbFile = path.join(dataDir, 'nodekeep.sqlite');
  cli = openDatabase(path.join(dataDir, 'nodekeep.sqlite'));
});
afterAll(async () => {
  await cli?.destroy();
  await stopTestServer(s);
});

describe('the server on its job runner', () => {
  it('prunes at start', async () => {
    await expect
      .poll(async () => (await s.deps.db.selectFrom('page_visits').select('path').execute()).map((r) => r.path))
      .toEqual(['/today']);
  });

  it('sends mail that another connection queued', async () => {
    await cli
      .transaction()
      .execute((trx) => enqueueMail(trx, { to: 'from-cli@example.test', subject: 'From the CLI', text: 'hello' }));
    await expect
      .poll(
        async () =>
          (
            await s.deps.db
              .selectFrom('mail_outbox')
              .select('status')
              .where('to_addr', '=', 'from-cli@example.test')
              .executeTakeFirst()
          )?.status,
      )
      .toBe('logged');
    expect(await s.deps.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('sends mail that another process queued and exited', async () => {
    const { stdout } = await otherProcess('enqueue-mail', dbFile, 'other-process@example.test');
    expect(stdout).toBe('queued\n');
    await expect
      .poll(
        async () =>
          (
            await s.deps.db
              .selectFrom('mail_outbox')
              .select('status')
              .where('to_addr', '=', 'other-process@example.test')
              .executeTakeFirst()
          )?.status,
      )
      .toBe('logged');
  });
});
