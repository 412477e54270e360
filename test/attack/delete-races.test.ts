import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DaemonSpec } from '../../src/server/fleet/engine';
import type { Fleet } from '../../src/server/nodes/runtime';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { fastFleetEnv } from '../support/fast-fleet';

// Attack: the owner's delete lands while register_submit is talking to the node's daemon.
// Both answered success, the deleted node was marked started and a `started` event went
// out for a node that no longer exists. The start is now recorded only on a node that is
// not being deleted, and the submit answers "not found". Likewise a delete that lands while
// the node's daemon is created on its engine: server_created went out for a deleted node.

const dataDir = tempDataDir('nodekeep-delete-races-');
const fleetEnv = fastFleetEnv(dataDir);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(fleetEnv, { dataDir });
});
afterAll(() => stopTestServer(s));

const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
const rpc = (mn: string, method: string, params: unknown[] = []) =>
  fetch(`http://127.0.0.1:${simPort()}/n/${mn}/`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '1.0', id: 't', method, params }),
  }).then((r) => r.json());

it('a delete that lands while register_submit asks the daemon: no start recorded, no started event, the submit answers not found', async () => {
  const u = await fundedUser(s.deps);
  const call = async (p: string, body?: unknown) => {
    const r = await fetch(s.url + p, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${u.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  const node = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
    { userId: u.id, coinId: 'dash', plan: 'dedicated' },
    {
      entry: 'aa'.repeat(32),
      output_text: `x 0.0.0.0:9999 ${'aa'.repeat(32)} 1 not_active`,
    },
  );
  await s.deps.fleet.reconcile();
  const mn = node.mn_id;
  await waitFor(
    async () => (await call(`/api/get_masternode?masternode=${mn}`)).body.data?.status === 'start required',
    20_000,
    'start required',
  );
  const { result } = await rpc(mn, 'bls', ['generate']);
  const output = `03000100${'00'.repeat(40)}${result.public}${'00'.repeat(20)} ${Buffer.alloc(65, 7).toString('base64')}`;

  // The interleaving forced: the owner's delete runs between the ownership check and the daemon call.
  const fleet = s.deps.fleet;
  const daemonOf = fleet.daemonOf.bind(fleet);
  let deleted: { status: number; body: any } | undefined;
  const reconcile = fleet.reconcile.bind(fleet);
  fleet.daemonOf = async (n) => {
    const d = await daemonOf(n);
    if (n.mn_id === mn && !deleted) {
      // The delete commits; its engine work waits a moment (as it would on a busy host).
      fleet.reconcile = async () => {};
      deleted = await call('/api/delete_masternode', { mn, reason: 'Testing the platform' });
      fleet.reconcile = reconcile;
    }
    return d;
  };
  try {
    const submitted = await call('/api/register_submit', { mn, output });
    expect(deleted).toEqual({ status: 200, body: { success: true, message: 'Masternode deleted.' } });
    expect(submitted).toEqual({ status: 404, body: { success: false, message: 'Masternode not found.' } });
  } finally {
    fleet.daemonOf = daemonOf;
    fleet.reconcile = reconcile;
  }
  const row = await s.deps.db
    .selectFrom('nodes')
    .select(['state', 'started_at'])
    .where('mn_id', '=', mn)
    .executeTakeFirstOrThrow();
  expect(row.started_at).toBeNull();
  expect(['deleting', 'deleted']).toContain(row.state);
  const started = await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'started').execute();
  expect(started.filter((e) => JSON.parse(e.payload).mn_id === mn)).toEqual([]);
}, 60_000);

it('a delete that lands while the node is created on its engine: no server_created, the node is destroyed', async () => {
  const u = await fundedUser(s.deps);
  const post = async (p: string, body: unknown) => {
    const r = await fetch(s.url + p, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  // The server's own fleet (FleetAccess is the narrow view procedures get).
  const engine = (s.deps.fleet as unknown as Fleet).engines.local;
  const create = engine.create.bind(engine);
  let deleted: { status: number; body: any } | undefined;
  let mn = '';
  engine.create = async (spec: DaemonSpec) => {
    await create(spec);
    if (spec.ownerId === u.id && !deleted)
      deleted = await post('/api/delete_masternode', { mn: spec.nodeId, reason: 'Testing the platform' });
  };
  try {
    const r = await post('/api/deploy_server', { currency: 'pivx', txid: `${'ef'.repeat(32)}-0` });
    expect(r.status).toBe(200);
    mn = r.body.server_id;
    await waitFor(
      async () =>
        (await s.deps.db.selectFrom('nodes').select('state').where('mn_id', '=', mn).executeTakeFirst())?.state ===
        'deleted',
      20_000,
      'deleted',
    );
  } finally {
    engine.create = create;
  }
  expect(deleted?.status).toBe(200);
  const created = await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'server_created').execute();
  expect(created.filter((e) => JSON.parse(e.payload).server_id === mn)).toEqual([]);
  const placement = await s.deps.db
    .selectFrom('node_view')
    .select(['destroyed_at'])
    .where('mn_id', '=', mn)
    .executeTakeFirstOrThrow();
  expect(placement.destroyed_at).not.toBeNull();
}, 60_000);
