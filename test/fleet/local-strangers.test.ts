import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DaemonSpec } from '../../src/server/fleet/engine';
import { LocalEngine } from '../../src/server/fleet/engines/local';
import { memoryLogger } from '../../src/server/kernel/log';
import { runCli } from '../../src/server/cli/main';
import { placedHere } from '../../src/server/nodes/local-host';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { pidsMatching, waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir } from '../support/server';
import { freshUser } from '../support/users';

// After a restore of an older backup, the local engine still holds the nodes made (or placed)
// since the backup: the database does not know them, or has not placed them. Their daemons
// are stopped before the engine resumes the rest, and their files are kept. Real processes
// stand in for the daemons; the simulator serves the simulated ones.

const dirs: string[] = [];
const engines: LocalEngine[] = [];
afterAll(async () => {
  for (const e of engines) await e.close();
  for (const d of dirs) {
    for (const pid of pidsMatching(d)) process.kill(pid, 'SIGKILL');
    fs.rmSync(d, { recursive: true, force: true });
  }
});

/** A daemon that runs until stopped; its data folder's path in its arguments tells its processes apart. */
function sleeper(nodeId: string, root: string): DaemonSpec {
  const dataDir = path.join(root, 'data', nodeId);
  return {
    nodeId,
    ownerId: 1,
    coinId: 'ltc',
    plan: 'cloud',
    program: '/bin/sh',
    args: ['-c', 'while :; do sleep 1; done', dataDir],
    ports: {},
    rpcPort: 'rpc',
    dataDir,
    limits: { memoryBytes: 0, cpus: 0 },
  };
}

function engineAt(dir: string) {
  const e = new LocalEngine({ dir, log: memoryLogger(), simulatorCommand: ['true'], simulator: false });
  engines.push(e);
  return e;
}

/** Two nodes started and left running, as a SIGTERM stop leaves them. */
async function leftRunning(root: string, ids: string[]) {
  const e = engineAt(path.join(root, 'fleet', 'local'));
  for (const id of ids) {
    await e.create({ ...sleeper(id, root), files: [{ name: 'node.conf', content: `node=${id}\n`, mode: 0o600 }] });
    await e.start(id);
  }
  await waitFor(
    async () => ids.every((id) => pidsMatching(path.join(root, 'data', id)).length === 1),
    15_000,
    'the daemons started',
  );
  await e.close({ keepDaemons: true });
}

describe('local daemons the database does not know or has not placed', () => {
  const live = { placed: true, live: true };
  const unplaced = { placed: false, live: false };
  const provisioning = { placed: true, live: false };
  const sorted = (r: { setAside: string[]; back: string[] }) => ({
    setAside: [...r.setAside].sort(),
    back: [...r.back].sort(),
  });

  it('are stopped and kept stopped, their files kept; the live ones are adopted as before; a node live again runs again', async () => {
    const root = tempDataDir('nodekeep-strangers-');
    dirs.push(root);
    await leftRunning(root, ['known-1', 'gone-1', 'unplaced-1']);
    // The engine's pid file: a forked child of the shell matches the data path for a moment too.
    const knownPid = Number(fs.readFileSync(path.join(root, 'fleet', 'local', 'known-1', 'pid'), 'utf8'));
    const running = (id: string) => pidsMatching(path.join(root, 'data', id)).length > 0;

    const e = engineAt(path.join(root, 'fleet', 'local'));
    const db = new Map([
      ['known-1', live],
      ['unplaced-1', unplaced],
    ]);
    expect(sorted(await e.setAside(db))).toEqual({ setAside: ['gone-1', 'unplaced-1'], back: [] });
    expect([running('gone-1'), running('unplaced-1')]).toEqual([false, false]);
    expect(fs.readFileSync(path.join(root, 'data', 'gone-1', 'node.conf'), 'utf8')).toBe('node=gone-1\n');
    expect(await e.resume()).toEqual({ adopted: ['known-1'], started: [] });
    expect(pidsMatching(path.join(root, 'data', 'known-1'))).toContain(knownPid);
    expect((await e.inspect('gone-1')).state).toBe('created');
    // Asked again (the next start), there is nothing more to set aside.
    expect(await e.setAside(db)).toEqual({ setAside: [], back: [] });
    await e.close();
    expect(running('known-1')).toBe(false);

    // A newer backup restored after: the database has gone-1 live again and unplaced-1 placed.
    // The live one runs again; the placed one waits for its provisioning to start it.
    const next = engineAt(path.join(root, 'fleet', 'local'));
    expect(
      sorted(
        await next.setAside(
          new Map([
            ['known-1', live],
            ['gone-1', live],
            ['unplaced-1', provisioning],
          ]),
        ),
      ),
    ).toEqual({ setAside: [], back: ['gone-1', 'unplaced-1'] });
    expect((await next.resume()).started.sort()).toEqual(['gone-1', 'known-1']);
    await waitFor(async () => running('gone-1') && running('known-1'), 15_000, 'both running');
    expect(running('unplaced-1')).toBe(false);
    await next.start('unplaced-1');
    await waitFor(async () => running('unplaced-1'), 15_000, 'the provisioned one running');
    // Started by the fleet, it is the fleet's again: a later start does not touch it.
    expect(
      await next.setAside(
        new Map([
          ['known-1', live],
          ['gone-1', live],
          ['unplaced-1', live],
        ]),
      ),
    ).toEqual({ setAside: [], back: [] });
    await next.close();
  });

  it('counts a node as placed only on this machine: one the database has on another host must not run here too', () => {
    const nodes = [
      { mn_id: 'here', state: 'live', host_id: 1 },
      { mn_id: 'here-failed', state: 'failed', host_id: 1 },
      { mn_id: 'elsewhere', state: 'live', host_id: 2 },
      { mn_id: 'queued', state: 'requested', host_id: null },
      { mn_id: 'placing', state: 'placing', host_id: 1 },
    ] as const;
    expect(Object.fromEntries(placedHere([...nodes], 1))).toEqual({
      here: { placed: true, live: true },
      'here-failed': { placed: true, live: false },
      elsewhere: { placed: false, live: true },
      queued: { placed: false, live: false },
      placing: { placed: false, live: false },
    });
    expect([...placedHere([...nodes], undefined).values()].some((n) => n.placed)).toBe(false);
  });

  it(
    'a server started on a restored backup stops them, the simulated ones too, and says so; a newer backup restored after runs its node again',
    { timeout: 120_000 },
    async () => {
      const root = tempDataDir('nodekeep-strangers-');
      dirs.push(root);
      const env = fastFleetEnv(root);
      const archive = path.join(root, 'before.tar.gz');
      let s = await startTestServer(env, { dataDir: root });
      let owner;
      try {
        owner = await freshUser(s.deps, { prefix: 'aside' });
        expect(await runCli(['backup', archive], { DATA_DIR: root }, { out: () => {} })).toBe(0);
        // After the backup: a simulated node deployed, and a real process of a node made on the side.
        const node = await requestNode(
          s.deps.db,
          { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
          { userId: owner.id, coinId: 'dash', plan: 'dedicated' },
        );
        await s.deps.fleet.reconcile();
        await waitFor(
          async () =>
            (await s.deps.db.selectFrom('node_view').select('state').where('mn_id', '=', node.mn_id).executeTakeFirst())
              ?.state === 'live',
          30_000,
          'the node live',
        );
        await leftRunning(root, ['made-after-backup']);
        const newer = path.join(root, 'newer.tar.gz');
        expect(await runCli(['backup', newer], { DATA_DIR: root }, { out: () => {} })).toBe(0);
        const simulated = async () => {
          const port = Number(fs.readFileSync(path.join(root, 'fleet', 'local', '_simulator', 'port'), 'utf8'));
          return ((await (await fetch(`http://127.0.0.1:${port}/admin/nodes`)).json()) as { nodes: string[] }).nodes;
        };
        expect(await simulated()).toContain(node.mn_id);
        // A SIGTERM stop: the daemons run on; then the restore.
        await s.close({ keepDaemons: true });
        expect(await runCli(['restore', archive], { DATA_DIR: root }, { out: () => {} })).toBe(0);

        s = await startTestServer(env, { dataDir: root });
        expect(pidsMatching(path.join(root, 'data', 'made-after-backup'))).toEqual([]);
        const warned = s.logLines
          .map((l) => JSON.parse(l))
          .find(
            (l) =>
              l.msg ===
              'fleet: stopped the local daemons of nodes the database does not know or has not placed; their files are kept',
          );
        expect(warned.level).toBe('warn');
        expect([...warned.nodes].sort()).toEqual([node.mn_id, 'made-after-backup'].sort());
        expect(fs.existsSync(path.join(root, 'data', 'made-after-backup', 'node.conf'))).toBe(true);
        // The simulator ran on through the stop and was adopted; the node left it.
        expect(
          s.logLines.some(
            (l) => l.includes('"msg":"local engine adopted running daemon"') && l.includes('"node":"_simulator"'),
          ),
        ).toBe(true);
        expect(await simulated()).not.toContain(node.mn_id);
        expect(s.logLines.some((l) => l.includes('simulator nodes not matched'))).toBe(false);

        // Once more with the stop: nothing more to set aside, and the node stays out.
        await s.close({ keepDaemons: true });
        s = await startTestServer(env, { dataDir: root });
        expect(s.logLines.some((l) => l.includes('nodes the database does not know'))).toBe(false);
        expect(await simulated()).not.toContain(node.mn_id);

        // The newer backup after all: its live node runs again, in the simulator it had left.
        await s.close({ keepDaemons: true });
        expect(await runCli(['restore', newer], { DATA_DIR: root }, { out: () => {} })).toBe(0);
        s = await startTestServer(env, { dataDir: root });
        expect(
          s.logLines
            .map((l) => JSON.parse(l))
            .find(
              (l) => l.msg === 'fleet: local daemons set aside before run again: the database has their nodes again',
            )?.nodes,
        ).toEqual([node.mn_id]);
        expect(await simulated()).toContain(node.mn_id);
        await waitFor(
          async () =>
            (
              await s.deps.db
                .selectFrom('node_view')
                .select('status')
                .where('mn_id', '=', node.mn_id)
                .executeTakeFirst()
            )?.status !== 'error',
          15_000,
          'the node answering',
        );
        // The process made on the side is not the database's: still stopped.
        expect(pidsMatching(path.join(root, 'data', 'made-after-backup'))).toEqual([]);
      } finally {
        await stopTestServer(s, { keepData: true });
      }
    },
  );
});
