import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { loopback, requestFrom } from '../support/from-ip';
import { liveClient } from '../support/live';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Finding 4: a live subscription lives no longer than the session that opened it.
let s: TestServer;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => (s = await startTestServer()));
afterAll(async () => {
  for (const c of closers) await c();
  await stopTestServer(s);
});

let nextIp = 3000;
const post = (path: string, body: unknown, token?: string) =>
  requestFrom(loopback(nextIp++), s.url + path, { body, token });
const quiet = { out: () => {} };

async function account(name: string) {
  expect(
    (await post('/public_api/register', { username: name, email: `${name}@example.test`, password: 'live-pass-1' }))
      .status,
  ).toBe(200);
}
async function session(name: string, password = 'live-pass-1'): Promise<string> {
  const r = await post('/public_api/login', { username: name, password });
  expect(r.status).toBe(200);
  return r.body.auth_token;
}
async function subscribed(token: string) {
  const c = liveClient(s.url, token);
  closers.push(c.close);
  await expect.poll(() => c.types()).toContain('sync');
  return c;
}
/** The operator credits the user from the CLI (another connection, as another process would). */
async function credit(name: string) {
  expect(await runCli(['billing', 'adjust', name, '+1', '--reason', 'test'], { DATA_DIR: s.dataDir }, quiet)).toBe(0);
}
async function ended(c: ReturnType<typeof liveClient>) {
  await expect
    .poll(() => c.errors.map((e) => String((e as Error).message)))
    .toContainEqual(expect.stringMatching(/session has ended/));
}
const balanceEvents = (c: ReturnType<typeof liveClient>) =>
  c.received.filter((e) => e.type === 'update_balance').length;
/**
 * Credits `name`, then a witness user whose live stream stays open. The hub delivers in
 * id order, so once the witness has its credit, `name`'s earlier one would have reached
 * an ended stream too, had it still been fed: no sleeping to prove an absence.
 */
let witness: { name: string; seen: () => number } | undefined;
async function creditPastWitness(name: string) {
  if (!witness) {
    await account('live_witness');
    const w = await subscribed(await session('live_witness'));
    witness = { name: 'live_witness', seen: () => balanceEvents(w) };
  }
  const before = witness.seen();
  await credit(name);
  await credit(witness.name);
  await expect.poll(() => witness!.seen()).toBe(before + 1);
}

describe('live events end with their session', () => {
  it('after logout', async () => {
    await account('live_logout');
    const token = await session('live_logout');
    const c = await subscribed(token);
    const before = s.deps.hub.subscriberCount;
    expect((await post('/api/logout', {}, token)).status).toBe(200);
    await ended(c);
    expect(s.deps.hub.subscriberCount).toBe(before - 1);
    await creditPastWitness('live_logout');
    expect(balanceEvents(c)).toBe(0);
  });

  it('after a password change, for the other sessions only', async () => {
    await account('live_change');
    const mine = await session('live_change');
    const other = await session('live_change');
    const own = await subscribed(mine);
    const elsewhere = await subscribed(other);
    expect(
      (await post('/api/change_password', { current_password: 'live-pass-1', new_password: 'live-pass-2' }, mine))
        .status,
    ).toBe(200);
    await ended(elsewhere);
    await credit('live_change');
    await expect.poll(() => balanceEvents(own)).toBe(1);
    expect(balanceEvents(elsewhere)).toBe(0);
    expect(own.errors).toEqual([]);
    // The internal notice is never shown to a client.
    expect(own.types()).not.toContain('sessions_ended');
  });

  it('after a password reset', async () => {
    await account('live_reset');
    const c = await subscribed(await session('live_reset'));
    expect((await post('/public_api/recover', { email: 'live_reset@example.test' })).status).toBe(200);
    const mail = await s.deps.db
      .selectFrom('mail_outbox')
      .select('text')
      .where('to_addr', '=', 'live_reset@example.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /reset\?token=(\S+)/.exec(mail.text)![1];
    expect((await post('/public_api/reset', { token, password: 'live-pass-3' })).status).toBe(200);
    await ended(c);
    await creditPastWitness('live_reset');
    expect(balanceEvents(c)).toBe(0);
  });

  it('after the operator disables the account from the CLI', async () => {
    await account('live_disable');
    const c = await subscribed(await session('live_disable'));
    expect(await runCli(['users', 'disable', 'live_disable'], { DATA_DIR: s.dataDir }, quiet)).toBe(0);
    await ended(c);
    await creditPastWitness('live_disable');
    expect(balanceEvents(c)).toBe(0);
  });

  it('a reconnect with an ended session is refused, and a live one resumes without internal events', async () => {
    await account('live_resume');
    const token = await session('live_resume');
    const first = await subscribed(token);
    await credit('live_resume');
    await expect.poll(() => balanceEvents(first)).toBe(1);
    // Another session of the user ends: an internal notice is written, and never replayed.
    const other = await session('live_resume');
    expect((await post('/api/logout', {}, other)).status).toBe(200);
    await credit('live_resume');
    await expect.poll(() => balanceEvents(first)).toBe(2);
    expect(first.types()).not.toContain('sessions_ended');
    await post('/api/logout', {}, token);
    await ended(first);
    const again = liveClient(s.url, token);
    closers.push(again.close);
    await expect.poll(() => again.errors.length).toBeGreaterThan(0);
    expect(again.received).toEqual([]);
  });
});
