import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { bls12_381 } from '@noble/curves/bls12-381';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DaemonAccess } from '../../src/server/fleet/access';
import { requestNode } from '../../src/server/nodes/lifecycle';
import type { Fleet } from '../../src/server/nodes/runtime';
import { waitFor } from '../support/daemons';
import { monitorCheckAfter } from '../support/monitor-check';
import { fastFleetEnv } from '../support/fast-fleet';
import { byStatus, loopback, requestFrom, type Answer } from '../support/from-ip';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Attack on the one start of a node: 100 register_submit / quick_setup for the same node
// at once, each from its own loopback address. Exactly one success, one `started` event,
// the daemon asked once; a refused answer gives the claim back; another user's node is
// "not found" for every one of them and nothing changes.

const dataDir = tempDataDir('nodekeep-start-claim-');
const fleetEnv = fastFleetEnv(dataDir);
let s: TestServer;
let owner: FreshUser;
let other: FreshUser;

// A proxy in front of the simulator that counts the daemon calls it forwards, by method.
const seen: Record<string, number> = {};
let proxy: http.Server;
const simPort = () => Number(fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8'));

beforeAll(async () => {
  s = await startTestServer(fleetEnv, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'own' });
  other = await freshUser(s.deps, { prefix: 'oth' });
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const m = JSON.parse(body.toString()) as { method?: string; params?: unknown[] };
        const key = `${req.url} ${m.method} ${Array.isArray(m.params) ? m.params[0] : ''}`;
        seen[key] = (seen[key] ?? 0) + 1;
      } catch {
        /* not JSON-RPC: forwarded as is */
      }
      const fwd = http.request(
        { host: '127.0.0.1', port: simPort(), path: req.url, method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as AddressInfo).port;
  const fleet = s.deps.fleet as unknown as Fleet;
  const daemonOf = fleet.daemonOf.bind(fleet);
  fleet.daemonOf = async (n) => {
    const d = await daemonOf(n);
    if (!d || !d.simulated) return d;
    return { ...d, endpoint: { ...d.endpoint, host: '127.0.0.1', port } } as DaemonAccess;
  };
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await stopTestServer(s);
});

const get = async (p: string, u: FreshUser) => {
  const r = await fetch(s.url + p, { headers: { authorization: `Bearer ${u.token}` } });
  return (await r.json()) as any;
};
const row = (mn: string) => s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
const startedEvents = async (mn: string) =>
  (await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'started').execute()).filter(
    (e) => JSON.parse(e.payload).mn_id === mn,
  ).length;
const rpc = (mn: string, method: string, params: unknown[] = []) =>
  fetch(`http://127.0.0.1:${simPort()}/n/${mn}/`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '1.0', id: 't', method, params }),
  }).then((r) => r.json() as Promise<any>);

async function startRequired(coinId: string, fields: Parameters<typeof requestNode>[3]) {
  const n = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
    { userId: owner.id, coinId, plan: 'dedicated' },
    fields,
  );
  await s.deps.fleet.reconcile();
  await waitFor(
    async () => (await get(`/api/get_masternode?masternode=${n.mn_id}`, owner)).data?.status === 'start required',
    30_000,
    'start required',
  );
  return n.mn_id;
}

const hundred = (base: number, p: string, body: unknown, u: FreshUser) =>
  Promise.all(
    Array.from({ length: 100 }, (_, i) => requestFrom(loopback(i, base), s.url + p, { body, token: u.token })),
  );

const SUBMITTED =
  'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.';
const UNDER_WAY = 'This node is being started right now. Please wait a minute, then check its status.';

/** One success; the others told it is started (400) or being started by another submit (409). */
function expectOneStart(answers: Answer[]) {
  expect(answers.filter((a) => a.status === 200).map((a) => a.body)).toEqual([{ success: true, message: SUBMITTED }]);
  for (const a of answers.filter((x) => x.status !== 200)) {
    expect([a.status, a.body.message]).toEqual(
      a.status === 409 ? [409, UNDER_WAY] : [400, 'This node has already been started.'],
    );
  }
}
const sig = Buffer.alloc(65, 7).toString('base64');

it('register_submit: 100 at once from 100 addresses -> a refused answer gives the claim back, then one success, one started, the daemon asked once; another user sees not found', async () => {
  const mn = await startRequired('dash', {
    entry: 'aa'.repeat(32),
    output_text: `x 0.0.0.0:9999 ${'aa'.repeat(32)} 1 not_active`,
  });
  const before = await row(mn);

  // Another user, 100 times at once: not found, nothing changes, the daemon never asked.
  const { result } = await rpc(mn, 'bls', ['generate']);
  const good = `03000100${'00'.repeat(40)}${result.public}${'00'.repeat(20)} ${sig}`;
  const stolen = await hundred(1000, '/api/register_submit', { mn, output: good }, other);
  expect(byStatus(stolen)).toEqual({ 404: 100 });
  for (const a of stolen) expect(a.body).toEqual({ success: false, message: 'Masternode not found.' });
  expect(await row(mn)).toEqual(before);
  const submitKey = `/n/${mn}/ protx register_submit`;
  expect(seen[submitKey] ?? 0).toBe(0);

  // A refused answer (a registration for another operator key) gives the claim back.
  const refused = await requestFrom(loopback(0, 2000), s.url + '/api/register_submit', {
    body: { mn, output: `${'03000100'.padEnd(200, '0')} ${sig}` },
    token: owner.token,
  });
  expect(refused).toEqual({
    status: 400,
    body: { success: false, message: 'The network refused the registration: transaction payload not deserializable' },
  });
  expect((await row(mn)).started_at).toBeNull();
  expect(seen[submitKey]).toBe(1);

  // 100 at once from 100 addresses: one reaches the daemon, one success, one started.
  const answers = await hundred(3000, '/api/register_submit', { mn, output: good }, owner);
  expectOneStart(answers);
  expect(seen[submitKey]).toBe(2);
  const after = await row(mn);
  expect(after.started_at).not.toBeNull();
  expect(after.output_text).toBe(`x 0.0.0.0:9999 ${'aa'.repeat(32)} 1 active`);
  await waitFor(
    async () => (await get(`/api/get_masternode?masternode=${mn}`, owner)).data?.status === 'running',
    30_000,
    'running',
  );
  // The monitor sees it run afterwards: still one started.
  await monitorCheckAfter(s.deps.db, mn, Date.now());
  expect(await startedEvents(mn)).toBe(1);
}, 120_000);

it('quick_setup: 100 at once from 100 addresses -> one success, one started, the fleet asked once; a refusal gives the claim back; another user sees not found', async () => {
  const mn = await startRequired('rtm', { entry: 'bb'.repeat(32), output_text: `x ${'bb'.repeat(32)} 0 not_active` });
  const before = await row(mn);
  const fleet = s.deps.fleet as unknown as Fleet;
  const setKey = fleet.setOperatorKey.bind(fleet);
  let asked = 0;
  let refuseNext = false;
  fleet.setOperatorKey = async (n, secret) => {
    if (n.mn_id === mn) asked += 1;
    if (n.mn_id === mn && refuseNext) {
      refuseNext = false;
      const { FleetActionError } = await import('../../src/server/fleet/access');
      throw new FleetActionError('Your node could not take the key. Nothing was changed; please try again.', 'failed');
    }
    // Slow enough that the racing requests overlap the one in flight.
    await new Promise((r) => setTimeout(r, 200));
    return setKey(n, secret);
  };
  try {
    const key = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
    const stolen = await hundred(5000, '/api/quick_setup', { mn, secret: key }, other);
    expect(byStatus(stolen)).toEqual({ 404: 100 });
    for (const a of stolen) expect(a.body).toEqual({ success: false, message: 'Masternode not found.' });
    expect(await row(mn)).toEqual(before);
    expect(asked).toBe(0);

    refuseNext = true;
    const refused = await requestFrom(loopback(0, 6000), s.url + '/api/quick_setup', {
      body: { mn, secret: key },
      token: owner.token,
    });
    // Accepted and queued; the job's refusal gives the claim back and tells the owner.
    expect(refused.status).toBe(200);
    await waitFor(
      async () =>
        s.deps.db
          .selectFrom('notifications')
          .select('id')
          .where('user_id', '=', owner.id)
          .where('kind', '=', 'quick_setup_failed')
          .executeTakeFirst(),
      30_000,
      'quick_setup_failed',
    );
    await waitFor(async () => (await row(mn)).start_claim_at === null, 30_000, 'the claim given back');
    expect((await row(mn)).started_at).toBeNull();
    expect(asked).toBe(1);

    const answers = await hundred(7000, '/api/quick_setup', { mn, secret: key }, owner);
    expectOneStart(answers);
    await waitFor(async () => (await row(mn)).started_at, 30_000, 'started by the quick setup job');
    expect(asked).toBe(2);
    expect((await row(mn)).output_text).toBe(`x ${'bb'.repeat(32)} 0 active`);
    await waitFor(
      async () => (await get(`/api/get_masternode?masternode=${mn}`, owner)).data?.status === 'running',
      30_000,
      'running',
    );
    await monitorCheckAfter(s.deps.db, mn, Date.now()); // the monitor sees it run: still one started
    expect(await startedEvents(mn)).toBe(1);
  } finally {
    fleet.setOperatorKey = setKey;
  }
}, 120_000);

it('register_submit: 100 refused at once from 100 addresses leave no claim behind; the owner can still start the node once', async () => {
  const mn = await startRequired('dash', {
    entry: 'dd'.repeat(32),
    output_text: `x 0.0.0.0:9999 ${'dd'.repeat(32)} 1 not_active`,
  });
  const bad = `${'03000100'.padEnd(200, '0')} ${sig}`;
  const answers = await hundred(9000, '/api/register_submit', { mn, output: bad }, owner);
  // Each refused by the daemon, or told another submit is asking it: never "already started".
  for (const a of answers)
    expect([a.status, a.body.message]).toContainEqual(
      a.status === 409 ? UNDER_WAY : 'The network refused the registration: transaction payload not deserializable',
    );
  expect(answers.some((a) => a.status === 400)).toBe(true);
  const r = await row(mn);
  expect(r.started_at).toBeNull();
  expect(r.output_text).toContain('not_active');
  expect(await startedEvents(mn)).toBe(0);
  const { result } = await rpc(mn, 'bls', ['generate']);
  const ok = await requestFrom(loopback(0, 9500), s.url + '/api/register_submit', {
    body: { mn, output: `03000100${'00'.repeat(40)}${result.public}${'00'.repeat(20)} ${sig}` },
    token: owner.token,
  });
  expect(ok).toEqual({ status: 200, body: { success: true, message: SUBMITTED } });
  await waitFor(async () => (await startedEvents(mn)) === 1, 15_000, 'one started');
}, 120_000);
