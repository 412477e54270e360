import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../src/server/coins/import';
import { migrateToLatest, openDatabase, type DB } from '../src/server/db/open';
import { pruneAll, RETENTION } from '../src/server/housekeeping/prune';
import { insertJob } from '../src/server/jobs/queue';
import { tempDataDir } from './support/server';
import { insertTestNode } from './support/nodes';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 23, 12);
const dir = tempDataDir();
let db: DB;
let userId: number;

beforeAll(async () => {
  db = openDatabase(path.join(dir, 'prune.sqlite'));
  await migrateToLatest(db);
  await importCatalog(db, bundledCatalogPath(), 'seed');
  ({ id: userId } = await db
    .insertInto('users')
    .values({
      username: 'p',
      username_key: 'p',
      email: 'p@example.test',
      email_key: 'p@example.test',
      password_hash: 'x',
      room_id: 'r',
      qr_key: 'q',
      verified_at: null,
      referrer: null,
      tfa_secret: null,
      disabled_at: null,
      created_at: now - 90 * DAY,
    })
    .returning('id')
    .executeTakeFirstOrThrow());
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ago = (ms: number) => now - ms;
const justOver = (keep: number) => ago(keep + 60_000);
const justUnder = (keep: number) => ago(keep - 60_000);

async function session(name: string, expires_at: number, revoked_at: number | null) {
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: name,
      created_at: ago(60 * DAY),
      last_used_at: ago(60 * DAY),
      expires_at,
      ip: '127.0.0.1',
      user_agent: 't',
      revoked_at,
    })
    .execute();
}

async function node(mn_id: string, deleted_at: number | null, destroyed_at: number | null) {
  const state = destroyed_at !== null ? 'deleted' : deleted_at !== null ? 'deleting' : 'live';
  await insertTestNode(db, {
    mn_id,
    user_id: userId,
    coin_id: 'dash',
    package: 'cloud',
    status: 'running',
    created_at: ago(60 * DAY),
    state,
    state_at: destroyed_at ?? deleted_at ?? ago(60 * DAY),
    deleted_at,
  });
}

describe('pruning', () => {
  it('deletes only what has outlived its use, in batches', async () => {
    // 4,500 old events (more than two batches) and a few recent ones.
    const old = Array.from({ length: 4500 }, () => ({
      user_id: null,
      type: 'update_stats',
      payload: '{}',
      created_at: justOver(RETENTION.eventsMs),
    }));
    for (let i = 0; i < old.length; i += 500)
      await db
        .insertInto('events')
        .values(old.slice(i, i + 500))
        .execute();
    await db
      .insertInto('events')
      .values([{ user_id: null, type: 'update_stats', payload: '{}', created_at: justUnder(RETENTION.eventsMs) }])
      .execute();

    await db
      .insertInto('page_visits')
      .values([
        { user_id: userId, path: '/old', at: justOver(RETENTION.pageVisitsMs) },
        { user_id: userId, path: '/recent', at: justUnder(RETENTION.pageVisitsMs) },
      ])
      .execute();

    await session('expired-long-ago', justOver(RETENTION.endedSessionsMs), null);
    await session('revoked-long-ago', now + 20 * DAY, justOver(RETENTION.endedSessionsMs));
    await session('expired-recently', justUnder(RETENTION.endedSessionsMs), null);
    await session('revoked-recently', now + 20 * DAY, justUnder(RETENTION.endedSessionsMs));
    await session('live', now + 20 * DAY, null);

    await node('destroyed-long-ago', ago(30 * DAY), justOver(RETENTION.destroyedNodesMs));
    await node('destroyed-recently', ago(30 * DAY), justUnder(RETENTION.destroyedNodesMs));
    await node('deleted-not-yet-destroyed', ago(30 * DAY), null);
    await node('live-and-old', null, null);

    await insertJob(db, 'mail.send', '{"mail_id":1}', { key: 'failed-long-ago' });
    await insertJob(db, 'mail.send', '{"mail_id":2}', { key: 'failed-recently' });
    await insertJob(db, 'mail.send', '{"mail_id":3}', { key: 'queued-old', runAt: ago(60 * DAY) });
    await db
      .updateTable('jobs')
      .set({ state: 'failed', updated_at: justOver(RETENTION.failedJobsMs) })
      .where('key', '=', 'failed-long-ago')
      .execute();
    await db
      .updateTable('jobs')
      .set({ state: 'failed', updated_at: justUnder(RETENTION.failedJobsMs) })
      .where('key', '=', 'failed-recently')
      .execute();

    const notification = (message: string, cleared_at: number | null) => ({
      user_id: userId,
      kind: 'node_down',
      params: '{}',
      message,
      icon: 'down',
      link: '/dashboard',
      hour: '2026-10-01 12:00',
      created_at: ago(90 * DAY),
      cleared_at,
    });
    await db
      .insertInto('notifications')
      .values([
        notification('cleared-long-ago', justOver(RETENTION.clearedNotificationsMs)),
        notification('cleared-recently', justUnder(RETENTION.clearedNotificationsMs)),
        notification('open-and-old', null),
      ])
      .execute();

    await db
      .insertInto('username_holds')
      .values([
        { username_key: 'expired-hold', expires_at: now - 1 },
        { username_key: 'current-hold', expires_at: now + 1 },
      ])
      .execute();

    // A destroyed validator's slashing-protection file: gone once its 30 days are over.
    const exitFile = (mn_id: string, expires_at: number) => ({
      mn_id,
      user_id: 1,
      coin_id: 'eth',
      alias: null,
      pubkey: '0x' + 'ab'.repeat(48),
      interchange: '{}',
      reason: null,
      created_at: expires_at - 30 * DAY,
      expires_at,
    });
    await db
      .insertInto('validator_exit_files')
      .values([exitFile('file-expired', now - 1), exitFile('file-kept', now + 1)])
      .execute();

    // Visitor chats held for an email confirmation: gone (with their messages) a while after the link expired, unless confirmed.
    const chat = async (email: string, held: number, confirm_expires_at: number) => {
      const { id } = await db
        .insertInto('support_conversations')
        .values({
          visitor_email: email,
          token_hash: `t-${email}`,
          created_at: ago(3 * DAY),
          last_message_at: ago(3 * DAY),
          held,
          confirm_token_hash: `c-${email}`,
          confirm_expires_at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('support_messages')
        .values({ conversation_id: id, from_operator: 0, operator_id: null, body: 'hello', created_at: ago(3 * DAY) })
        .execute();
    };
    await chat('held-expired-long-ago', 1, justOver(RETENTION.heldSupportChatsMs));
    await chat('held-expired-recently', 1, justUnder(RETENTION.heldSupportChatsMs));
    await chat('confirmed-long-ago', 0, justOver(RETENTION.heldSupportChatsMs));

    expect(await pruneAll(db, now)).toEqual({
      events: 4500,
      page_visits: 1,
      sessions: 2,
      nodes: 1,
      validator_exit_files: 1,
      jobs: 1,
      notifications: 1,
      username_holds: 1,
      support_conversations: 1,
    });

    expect(await db.selectFrom('events').select('created_at').execute()).toEqual([
      { created_at: justUnder(RETENTION.eventsMs) },
    ]);
    expect((await db.selectFrom('page_visits').select('path').execute()).map((r) => r.path)).toEqual(['/recent']);
    expect(
      (await db.selectFrom('sessions').select('token_hash').orderBy('id').execute()).map((r) => r.token_hash),
    ).toEqual(['expired-recently', 'revoked-recently', 'live']);
    expect((await db.selectFrom('nodes').select('mn_id').orderBy('id').execute()).map((r) => r.mn_id)).toEqual([
      'destroyed-recently',
      'deleted-not-yet-destroyed',
      'live-and-old',
    ]);
    expect((await db.selectFrom('validator_exit_files').select('mn_id').execute()).map((r) => r.mn_id)).toEqual([
      'file-kept',
    ]);
    expect((await db.selectFrom('jobs').select('key').orderBy('id').execute()).map((r) => r.key)).toEqual([
      'failed-recently',
      'queued-old',
    ]);
    expect(
      (await db.selectFrom('notifications').select('message').orderBy('id').execute()).map((r) => r.message),
    ).toEqual(['cleared-recently', 'open-and-old']);
    expect((await db.selectFrom('username_holds').select('username_key').execute()).map((r) => r.username_key)).toEqual(
      ['current-hold'],
    );
    expect(
      (await db.selectFrom('support_conversations').select('visitor_email').orderBy('id').execute()).map(
        (r) => r.visitor_email,
      ),
    ).toEqual(['held-expired-recently', 'confirmed-long-ago']);
    expect(await db.selectFrom('support_messages').select('id').execute()).toHaveLength(2);

    // A second run finds nothing more.
    expect(await pruneAll(db, now)).toEqual({
      events: 0,
      page_visits: 0,
      sessions: 0,
      nodes: 0,
      validator_exit_files: 0,
      jobs: 0,
      notifications: 0,
      username_holds: 0,
      support_conversations: 0,
    });
  });
});
