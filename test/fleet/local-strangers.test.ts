import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DaemonSpec } from '../../src/server/fleet/engine';
import { LocalEngine } from '../../src/server/fleet/engines/local';
import { memoryLogger } from '../../src/server/log';
import { pidsMatching, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir } from '../support/server';

// After a restore of an older backup, the local engine still holds the nodes made since the
// backup: the database no longer knows them. Their daemons are stopped before the engine
// resumes the rest, and their files are kept. Real processes stand in for the daemons.

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
  return { nodeId, ownerId: 1, coinId: 'ltc', plan: 'cloud', program: '/bin/sh', args: ['-c', 'while :; do sleep 1; done', dataDir], ports: {}, rpcPort: 'rpc', dataDir, limits: { memoryBytes: 0, cpus: 0 } };
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
  await waitFor(async () => ids.every((id) => pidsMatching(path.join(root, 'data', id)).length === 1), 15_000, 'the daemons started');
  await e.close({ keepDaemons: true });
}

describe('local daemons the database does not know', () => {
  it('are stopped and kept stopped, their files kept; the known ones are adopted as before', async () => {
    const root = tempDataDir('nodekeep-strangers-');
    dirs.push(root);
    await leftRunning(root, ['known-1', 'gone-1']);
    const [knownPid] = pidsMatching(path.join(root, 'data', 'known-1'));

    const e = engineAt(path.join(root, 'fleet', 'local'));
    expect(await e.setAside((id) => id === 'known-1')).toEqual(['gone-1']);
    expect(pidsMatching(path.join(root, 'data', 'gone-1'))).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'data', 'gone-1', 'node.conf'), 'utf8')).toBe('node=gone-1\n');
    expect(await e.resume()).toEqual({ adopted: ['known-1'], started: [] });
    expect(pidsMatching(path.join(root, 'data', 'known-1'))).toEqual([knownPid]);
    expect((await e.inspect('gone-1')).state).toBe('created');
    // Asked again (the next start), there is nothing left to set aside.
    expect(await e.setAside((id) => id === 'known-1')).toEqual([]);
    await e.close();
    expect(pidsMatching(path.join(root, 'data', 'known-1'))).toEqual([]);

    // The next engine starts the known one again, and still not the other.
    const next = engineAt(path.join(root, 'fleet', 'local'));
    expect(await next.resume()).toEqual({ adopted: [], started: ['known-1'] });
    expect(pidsMatching(path.join(root, 'data', 'gone-1'))).toEqual([]);
    await next.close();
  });

  it('a server starting on a database without them stops them and says so in its log', async () => {
    const root = tempDataDir('nodekeep-strangers-');
    dirs.push(root);
    await leftRunning(root, ['made-after-backup']);
    const s = await startTestServer({}, { dataDir: root });
    try {
      expect(pidsMatching(path.join(root, 'data', 'made-after-backup'))).toEqual([]);
      const warned = s.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'fleet: stopped the local daemons of nodes the database does not know; their files are kept');
      expect(warned).toMatchObject({ level: 'warn', nodes: ['made-after-backup'] });
      expect(fs.existsSync(path.join(root, 'data', 'made-after-backup', 'node.conf'))).toBe(true);
    } finally {
      await stopTestServer(s, { keepData: true });
    }
    // Nor does the next start run it.
    const again = await startTestServer({}, { dataDir: root });
    try {
      expect(pidsMatching(path.join(root, 'data', 'made-after-backup'))).toEqual([]);
      expect(again.logLines.some((l) => l.includes('nodes the database does not know'))).toBe(false);
    } finally {
      await stopTestServer(again, { keepData: true });
    }
  });
});
