import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emailSettingKeys } from '../../src/shared/notification-kinds';
import { unsubscribeToken } from '../../src/server/notifications/unsubscribe-token';
import { snapshot } from '../support/db-snapshot';
import { byStatus, loopback, requestFrom, type Answer } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Attack on the notification procedures and the one-click unsubscribe link: forged,
// altered, replayed and other users' tokens, 100 at once from 100 addresses; 100 parallel
// saves with conflicting settings; huge and hostile inputs. Each bad request gets a clear
// refusal and writes nothing; parallel saves never leave a mix of two saves.

let s: TestServer;
let alice: FreshUser;
let bob: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  alice = await freshUser(s.deps, { prefix: 'alice' });
  bob = await freshUser(s.deps, { prefix: 'bob' });
});
afterAll(() => stopTestServer(s));

const settings = async (u: FreshUser) => {
  const r = await fetch(`${s.url}/api/get_notification_settings`, { headers: { authorization: `Bearer ${u.token}` } });
  const body = (await r.json()) as { settings: Record<string, { enabled: boolean }> };
  return Object.fromEntries(Object.entries(body.settings).map(([k, v]) => [k, v.enabled]));
};
const onList = (m: Record<string, boolean>) =>
  Object.keys(m)
    .filter((k) => m[k])
    .sort();

/** A form POST (what a mail client's one-click unsubscribe sends) or a GET, from `ip`. */
function unsubscribeFrom(ip: string, t: string, method: 'GET' | 'POST' = 'POST', rawQuery?: string): Promise<Answer> {
  const u = new URL(s.url);
  const body = method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: `/unsubscribe?${rawQuery ?? `t=${encodeURIComponent(t)}`}`,
        method,
        localAddress: ip,
        agent: false,
        headers: {
          connection: 'close',
          ...(body
            ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: { text } }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it('forged, altered and moved tokens, 100 at once from 100 addresses: all 400 with the invalid-link page, nothing written', async () => {
  const good = await unsubscribeToken(s.deps.db, alice.id, 'node_down');
  const [id, setting, mac] = good.split('.');
  const flip = (m: string) => m.slice(0, 10) + (m[10] === 'A' ? 'B' : 'A') + m.slice(11);
  const forged = [
    `${bob.id}.${setting}.${mac}`, // alice's mac on bob's id
    `${id}.payments.${mac}`, // another setting
    `${id}.${setting}.${flip(mac)}`,
    `${id}.${setting}.${mac.slice(0, -1)}`,
    `${id}.${setting}.${mac}A`,
    `${id}.__proto__.${mac}`,
    `${id}.constructor.${mac}`,
    `${id}.hasOwnProperty.${mac}`,
    `-${id}.${setting}.${mac}`,
    `${id}.0.${setting}.${mac}`,
    `${id}.${setting}.${Buffer.from(mac, 'base64url').toString('hex')}`,
    `${id}.${setting}.${Buffer.from(mac, 'base64url').toString('base64')}`,
    `${'9'.repeat(16)}.${setting}.${mac}`,
    `0.${setting}.${mac}`,
    `${id} .${setting}.${mac}`,
    `${id}.${setting}.${mac}\n`,
    '',
    'x'.repeat(4000),
  ];
  const before = await snapshot(s.deps.db);
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      unsubscribeFrom(loopback(i, 100), forged[i % forged.length], i % 2 ? 'POST' : 'GET'),
    ),
  );
  expect(byStatus(answers)).toEqual({ 400: 100 });
  for (const a of answers) expect(a.body.text).toContain('This unsubscribe link is not valid.');
  expect(await snapshot(s.deps.db)).toBe(before);
  // No token at all, a token sent twice (the second one good), a huge query.
  for (const q of [
    '',
    'x=1',
    `t=${encodeURIComponent(forged[0])}&t=${encodeURIComponent(good)}`,
    `t=${'a'.repeat(8000)}`,
  ]) {
    const r = await unsubscribeFrom(loopback(0, 300), '', 'POST', q);
    expect(r.status, q.slice(0, 40)).toBeGreaterThanOrEqual(400);
    expect(r.status, q.slice(0, 40)).toBeLessThan(500);
  }
  expect(await snapshot(s.deps.db)).toBe(before);
});

it("a good token replayed 100 times at once from 100 addresses: one setting of one user off, nothing else; a missing user's token is invalid", async () => {
  const u = await freshUser(s.deps, { prefix: 'replay' });
  const t = await unsubscribeToken(s.deps.db, u.id, 'node_down');
  const before = { u: await settings(u), alice: await settings(alice) };
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => unsubscribeFrom(loopback(i, 500), t)));
  expect(byStatus(answers)).toEqual({ 200: 100 });
  expect(await settings(u)).toEqual({ ...before.u, node_down: false });
  expect(await settings(alice)).toEqual(before.alice);
  const rows = await s.deps.db.selectFrom('notification_settings').selectAll().where('user_id', '=', u.id).execute();
  expect(rows.map((r) => [r.setting, r.enabled])).toEqual([['node_down', 0]]);

  // A well-signed link for a user who is not (or no longer) there: invalid, writes nothing.
  const ghost = 987_654_321;
  const r = await unsubscribeFrom(loopback(0, 700), await unsubscribeToken(s.deps.db, ghost, 'node_down'));
  expect(r.status).toBe(400);
  expect(r.body.text).toContain('This unsubscribe link is not valid.');
  expect(
    await s.deps.db.selectFrom('notification_settings').selectAll().where('user_id', '=', ghost).execute(),
  ).toEqual([]);
});

it('100 saves at once from 100 addresses, each a different set, with unsubscribes racing: the result is exactly one save, then the unsubscribes', async () => {
  const keys = [...emailSettingKeys];
  // Save i turns on the keys whose bit is set in i (over the first keys), a distinct set each.
  const sets = Array.from({ length: 100 }, (_, i) => keys.filter((_, k) => ((i + 1) >> k) & 1));
  const unsub = await unsubscribeToken(s.deps.db, bob.id, keys[0]);
  const saves = sets.map((list, i) =>
    requestFrom(loopback(i, 900), `${s.url}/api/save_notification_settings`, {
      body: { settings: list },
      token: bob.token,
    }),
  );
  const answers = await Promise.all(saves);
  expect(byStatus(answers)).toEqual({ 200: 100 });
  const final = onList(await settings(bob));
  expect(sets.map((l) => [...l].sort().join(','))).toContain(final.join(','));

  // Saves and the unsubscribe link at once: either the save came last (its set) or the
  // unsubscribe did (that set with keys[0] off); never a mix of two saves.
  const racing = await Promise.all([
    ...sets.slice(0, 50).map((list, i) =>
      requestFrom(loopback(i, 1100), `${s.url}/api/save_notification_settings`, {
        body: { settings: list },
        token: bob.token,
      }),
    ),
    ...Array.from({ length: 50 }, (_, i) => unsubscribeFrom(loopback(i, 1200), unsub)),
  ]);
  expect(byStatus(racing)).toEqual({ 200: 100 });
  const after = onList(await settings(bob)).join(',');
  const possible = sets.slice(0, 50).flatMap((l) => [
    [...l].sort().join(','),
    l
      .filter((k) => k !== keys[0])
      .sort()
      .join(','),
  ]);
  expect(possible).toContain(after);
});

it('hostile inputs to the procedures: clear 400s, nothing written', async () => {
  const post = async (p: string, body: string) => {
    const r = await fetch(s.url + p, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body,
    });
    const text = await r.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = { text };
    }
    return { status: r.status, body: json };
  };
  const before = await snapshot(s.deps.db);
  const cases: Array<[string, string, number?]> = [
    ['101 names', JSON.stringify({ settings: Array.from({ length: 101 }, () => 'node_down') })],
    ['a 65-character name', JSON.stringify({ settings: ['s'.repeat(65)] })],
    ['a 1 MiB name', JSON.stringify({ settings: ['s'.repeat(1 << 20)] }), 413],
    ['__proto__', JSON.stringify({ settings: ['__proto__'] })],
    ['constructor', JSON.stringify({ settings: ['constructor', 'node_down'] })],
    ['toString', JSON.stringify({ settings: ['toString'] })],
    ['a number', JSON.stringify({ settings: [1] })],
    ['an object for the list', '{"settings":{"__proto__":{"polluted":1},"0":"security"}}'],
    ['a __proto__ key', '{"settings":["security"],"__proto__":{"polluted":1}}'],
    ['an extra key', JSON.stringify({ settings: ['node_down'], user_id: bob.id })],
    ['no list', '{}'],
    ['null', 'null'],
    ['broken JSON', '{"settings":['],
  ];
  for (const [what, body, status] of cases) {
    const r = await post('/api/save_notification_settings', body).catch((err) => ({
      status: 0,
      body: { text: String(err) },
    }));
    if (status === 413 && r.status === 0) continue; // answered before the body was all sent
    expect(r.status, `${what}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(status ?? 400);
    expect(r.body.success, what).toBe(false);
    expect(typeof r.body.message, what).toBe('string');
    expect(r.body.message.length, what).toBeLessThan(600);
  }
  // clear_notifications takes no input.
  for (const body of ['{"user_id":1}', '{"__proto__":{"x":1}}', '[1]']) {
    const r = await post('/api/clear_notifications', body);
    expect(r.status, body).toBe(400);
  }
  expect(({} as any).polluted).toBeUndefined();
  expect(await snapshot(s.deps.db)).toBe(before);
});
