import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { AppError } from '../../src/server/kernel/errors';
import { changeRollout, planBatches, ROLLOUT_MESSAGES, startRollout } from '../../src/server/nodes/rollouts';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { cliActor } from '../../src/server/operator/log';
import { pidsMatching, waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Daemon upgrades through the real fleet: simulated Dash nodes on the local engine (the
// simulator stands for any daemon version; one with "broken" in it never starts), the
// rollout job moving them a canary first, then batches, each checked on its new version.

const dataDir = tempDataDir('nodekeep-rollouts-');
let s: TestServer;
let owner: FreshUser;
let operator: FreshUser;
const nodes: string[] = [];

const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
const subversion = async (mn: string) => {
  const r = (await fetch(`http://127.0.0.1:${simPort()}/n/${mn}/`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '1.0', id: 't', method: 'getnetworkinfo', params: [] }),
  }).then((x) => x.json())) as { result?: { subversion: string } };
  return r.result?.subversion ?? null;
};
const rollout = (id: number) =>
  s.deps.db.selectFrom('daemon_rollouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const rolloutNodes = (id: number) =>
  s.deps.db
    .selectFrom('daemon_rollout_nodes as r')
    .innerJoin('nodes as n', 'n.id', 'r.node_id')
    .select(['n.mn_id', 'r.batch', 'r.state', 'r.error'])
    .where('r.rollout_id', '=', id)
    .orderBy('r.batch')
    .orderBy('n.id')
    .execute();
const versionOf = async (mn: string) =>
  (
    await s.deps.db
      .selectFrom('placements as p')
      .innerJoin('nodes as n', 'n.id', 'p.node_id')
      .select('p.daemon_version')
      .where('n.mn_id', '=', mn)
      .executeTakeFirstOrThrow()
  ).daemon_version;
const coinVersion = async () =>
  (
    await s.deps.db
      .selectFrom('coin_daemon_versions')
      .select('version')
      .where('coin_id', '=', 'dash')
      .executeTakeFirst()
  )?.version ?? null;
const cli = (...args: string[]) => runCli(args, { DATA_DIR: dataDir }, { out: () => {} });

beforeAll(async () => {
  s = await startTestServer(
    { ...fastFleetEnv(dataDir), ROLLOUT_TICK_SECONDS: '0.1', ROLLOUT_HEALTH_SECONDS: '4' },
    { dataDir },
  );
  owner = await freshUser(s.deps, { prefix: 'upown' });
  operator = await freshUser(s.deps, { prefix: 'upop', tfa: true });
  expect(await cli('users', 'promote', operator.username)).toBe(0);
  for (let i = 0; i < 5; i++) {
    const n = await requestNode(
      s.deps.db,
      { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
      { userId: owner.id, coinId: 'dash', plan: 'dedicated' },
    );
    nodes.push(n.mn_id);
  }
  await s.deps.fleet.reconcile();
  await waitFor(
    async () => {
      const live = await s.deps.db
        .selectFrom('node_view')
        .select('mn_id')
        .where('state', '=', 'live')
        .where('user_id', '=', owner.id)
        .execute();
      return live.length === nodes.length && (await Promise.all(nodes.map(subversion))).every((v) => v !== null);
    },
    30_000,
    'five live simulated nodes answering RPC',
  );
}, 60_000);
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('daemon upgrades', () => {
  it('plans a canary alone, then batches of the given size', () => {
    expect(planBatches([1, 2, 3, 4, 5, 6], 2)).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(planBatches([1], 10)).toEqual([[1]]);
    expect(planBatches([], 3)).toEqual([]);
  });

  it('refuses a malformed version, a bad batch size and an unknown coin, writing nothing', async () => {
    const start = (version: string, batchSize = 2) =>
      startRollout(s.deps.db, s.deps.fleet, cliActor(), { coinId: 'dash', version, batchSize });
    await expect(start('22 beta')).rejects.toSatisfy(
      (e) => e instanceof AppError && e.message === ROLLOUT_MESSAGES.badVersion,
    );
    await expect(start('22.1', 0)).rejects.toSatisfy((e) => e instanceof AppError && /batch size/.test(e.message));
    await expect(
      startRollout(s.deps.db, s.deps.fleet, cliActor(), { coinId: 'nope', version: '1.0', batchSize: 1 }),
    ).rejects.toSatisfy((e) => e instanceof AppError && e.message === 'No coin nope.');
    expect(await s.deps.db.selectFrom('daemon_rollouts').selectAll().execute()).toEqual([]);
    expect(await coinVersion()).toBeNull();
  });

  it('100 operators starting the same upgrade at once from 100 addresses: one rollout, the rest refused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        requestFrom(loopback(i, 9000), `${s.url}/trpc/console.upgrades.start`, {
          body: { coin_id: 'dash', version: '22.1.9', batch_size: 5 },
          token: operator.token,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // A request that arrives while the rollout runs is told it is under way; on a loaded machine
    // the five simulated nodes can finish first, and a late one is told the coin already runs it.
    for (const a of answers)
      if (a.status !== 200)
        expect([ROLLOUT_MESSAGES.busy, ROLLOUT_MESSAGES.sameVersion]).toContain(a.body.error.message);
    expect(await s.deps.db.selectFrom('daemon_rollouts').selectAll().execute()).toHaveLength(1);
    const [only] = await s.deps.db.selectFrom('daemon_rollouts').selectAll().execute();
    await waitFor(async () => (await rollout(only.id)).state === 'done', 30_000, 'the one rollout done');
    expect(
      await s.deps.db.selectFrom('operator_log').select('address').where('action', '=', 'fleet upgrade').execute(),
    ).toHaveLength(1);
  });

  it('upgrades the canary, then each batch once the one before is healthy on the new version; owners are told', async () => {
    expect(await cli('fleet', 'upgrade', 'dash', '22.2.0', '--batch-size', '2')).toBe(0);
    const { id } = await s.deps.db
      .selectFrom('daemon_rollouts')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // New nodes get the new version from the start.
    expect(await coinVersion()).toBe('22.2.0');
    // A second upgrade of the coin while this one runs is refused.
    await expect(
      startRollout(s.deps.db, s.deps.fleet, cliActor(), { coinId: 'dash', version: '22.3.0', batchSize: 2 }),
    ).rejects.toSatisfy((e) => e instanceof AppError && e.message === ROLLOUT_MESSAGES.busy);
    await waitFor(async () => (await rollout(id)).state === 'done', 30_000, 'the rollout done');
    const plan = await rolloutNodes(id);
    expect(plan.map((n) => [n.mn_id, n.batch, n.state])).toEqual([
      [nodes[0], 0, 'healthy'],
      [nodes[1], 1, 'healthy'],
      [nodes[2], 1, 'healthy'],
      [nodes[3], 2, 'healthy'],
      [nodes[4], 2, 'healthy'],
    ]);
    for (const mn of nodes) {
      expect(await versionOf(mn)).toBe('22.2.0');
      expect(await subversion(mn)).toBe('/Nodekeep-Simulator/1.0:22.2.0/');
    }
    const told = await s.deps.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', owner.id)
      .where('kind', '=', 'daemon_upgraded')
      .where('message', 'like', '%22.2.0%')
      .execute();
    expect(told).toHaveLength(5);
    expect(told[0].message).toMatch(/now runs daemon version 22\.2\.0, as its network requires\.$/);
    const logged = await s.deps.db
      .selectFrom('operator_log')
      .select(['action', 'actor'])
      .where('action', '=', 'fleet upgrade')
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { action: 'fleet upgrade', actor: 'operator' },
      { action: 'fleet upgrade', actor: 'cli' },
    ]);
  });

  it('pauses after the batch under way, resumes, and aborts with new nodes back on the version the rest run', async () => {
    const r = await startRollout(s.deps.db, s.deps.fleet, cliActor(), {
      coinId: 'dash',
      version: '22.2.1',
      batchSize: 1,
    });
    await changeRollout(s.deps.db, cliActor(), r.id, 'pause');
    expect((await rollout(r.id)).state).toBe('paused');
    // Whatever batch was under way ends; no other begins while paused. The witness: two
    // whole runs of the rollout job that began after the pause (each would move a running rollout on).
    await s.jobs.trigger('fleet.rollouts');
    await s.jobs.trigger('fleet.rollouts');
    const paused = await rolloutNodes(r.id);
    expect(paused.filter((n) => n.state === 'healthy').length).toBeLessThanOrEqual(1);
    expect(paused.filter((n) => n.state === 'pending').length).toBeGreaterThanOrEqual(4);
    await changeRollout(s.deps.db, cliActor(), r.id, 'resume');
    await waitFor(
      async () => (await rolloutNodes(r.id)).filter((n) => n.state === 'healthy').length >= 2,
      20_000,
      'two nodes upgraded after resuming',
    );
    await changeRollout(s.deps.db, cliActor(), r.id, 'abort');
    const aborted = await rollout(r.id);
    expect(aborted.state).toBe('aborted');
    expect(aborted.reason).toMatch(/^Aborted by /);
    expect(await coinVersion()).toBe('22.2.0');
    await expect(changeRollout(s.deps.db, cliActor(), r.id, 'resume')).rejects.toSatisfy(
      (e) => e instanceof AppError && e.message === ROLLOUT_MESSAGES.finished,
    );
    // Upgraded nodes keep the new version; the rest were not touched after the abort (the
    // witness: two whole runs of the rollout job that began after it).
    await s.jobs.trigger('fleet.rollouts');
    await s.jobs.trigger('fleet.rollouts');
    const after = await rolloutNodes(r.id);
    for (const n of after) expect(await versionOf(n.mn_id)).toBe(n.state === 'healthy' ? '22.2.1' : '22.2.0');
    expect(
      await s.deps.db
        .selectFrom('operator_log')
        .select('action')
        .where('action', 'in', ['fleet upgrade pause', 'fleet upgrade resume', 'fleet upgrade abort'])
        .execute(),
    ).toHaveLength(3);
    // Back to one version: only the nodes on 22.2.1 are planned.
    const upgraded = after.filter((n) => n.state === 'healthy').length;
    const r2 = await startRollout(s.deps.db, s.deps.fleet, cliActor(), {
      coinId: 'dash',
      version: '22.2.0',
      batchSize: 5,
    });
    expect(r2.nodes).toBe(upgraded);
    await waitFor(async () => (await rollout(r2.id)).state === 'done', 30_000, 'all back on 22.2.0');
    for (const mn of nodes) expect(await versionOf(mn)).toBe('22.2.0');
    // Now every node and the coin are on 22.2.0: nothing to do.
    await expect(
      startRollout(s.deps.db, s.deps.fleet, cliActor(), { coinId: 'dash', version: '22.2.0', batchSize: 5 }),
    ).rejects.toSatisfy((e) => e instanceof AppError && e.message === ROLLOUT_MESSAGES.sameVersion);
  });

  it('stops at a canary that is not healthy on the new version, puts it back, and tells the operators', async () => {
    const r = await startRollout(s.deps.db, s.deps.fleet, cliActor(), {
      coinId: 'dash',
      version: '23.0.0-broken',
      batchSize: 2,
    });
    expect(r).toMatchObject({ nodes: 5, skipped: 0 });
    await waitFor(async () => (await rollout(r.id)).state === 'halted', 30_000, 'the rollout halted');
    const halted = await rollout(r.id);
    expect(halted.reason).toMatch(
      new RegExp(`^Batch the canary failed on node ${nodes[0]}: not healthy on 23\\.0\\.0-broken within 4 s`),
    );
    const plan = await rolloutNodes(r.id);
    expect(plan[0]).toMatchObject({ mn_id: nodes[0], batch: 0, state: 'failed' });
    // The others were never touched.
    expect(plan.slice(1).every((n) => n.state === 'pending')).toBe(true);
    // The canary runs the old version again, and new nodes get the old version too.
    expect(await versionOf(nodes[0])).toBe('22.2.0');
    await waitFor(
      async () => (await subversion(nodes[0])) === '/Nodekeep-Simulator/1.0:22.2.0/',
      10_000,
      'the canary back on 22.2.0',
    );
    expect(await coinVersion()).toBe('22.2.0');
    const alert = await s.deps.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', operator.id)
      .where('kind', '=', 'rollout_halted')
      .executeTakeFirstOrThrow();
    expect(alert.message).toMatch(/^The Dash daemon upgrade to 23\.0\.0-broken stopped: Batch the canary failed/);
    expect(
      await s.deps.db
        .selectFrom('operator_log')
        .select('action')
        .where('action', '=', 'fleet upgrade halted')
        .execute(),
    ).toHaveLength(1);
  });
});
