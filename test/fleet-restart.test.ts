import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { pidsMatching, waitFor } from './support/daemons';
import { fastFleetEnv } from './support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { freshUser } from './support/users';

// `fleet restart` against the running server's control loop: the CLI (another process's
// code on the same folder) waits for the loop's answer and reports the real outcome.
const dataDir = tempDataDir('nodekeep-restart-');
const env = fastFleetEnv(dataDir);
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(env, { dataDir });
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const cli = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((c: string | Uint8Array) => (err.push(String(c)), true)) as typeof process.stderr.write;
  try {
    const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => out.push(l) });
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
};
const nodeRow = (id: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();

async function liveNode() {
  const u = await freshUser(s.deps);
  const created = await cli('fleet', 'create', 'dash', '--user', u.username, '--plan', 'cloud');
  expect(created.code).toBe(0);
  const id = /node (\S+) requested/.exec(created.out)![1];
  await waitFor(async () => (await nodeRow(id)).first_answer_at, 30_000, 'the daemon answers');
  return id;
}

describe('fleet restart', () => {
  it('reports a healthy node restarted and answering, exit 0', async () => {
    const id = await liveNode();
    const r = await cli('fleet', 'restart', id);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${id} restarted; its daemon answers`);
    expect((await nodeRow(id)).restarted_at).toBeGreaterThanOrEqual((await nodeRow(id)).restart_requested_at!);
  }, 90_000);

  it('reports the failure of a node whose daemon is gone from its host, exit 1', async () => {
    const id = await liveNode();
    // The daemon and everything the engine knew of it, gone behind the platform's back.
    fs.rmSync(path.join(dataDir, 'fleet', 'local', id), { recursive: true, force: true });
    const r = await cli('fleet', 'restart', id);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('restarted;');
    expect(r.err).toContain(`${id} could not be restarted: local engine has no node ${id}`);
  }, 90_000);

  it('refuses an unknown node, asking nothing', async () => {
    const r = await cli('fleet', 'restart', 'dash-0000000000');
    expect(r.code).not.toBe(0);
  });
});
