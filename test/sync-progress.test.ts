import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { syncProgressOf } from '../src/server/nodes/sync-progress';
import { pidsMatching, waitFor } from './support/daemons';
import { fastFleetEnv } from './support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { freshUser } from './support/users';

// A dash node really placed on the simulator syncs for 20 s (the monitor looks every half
// second); its sync is stopped through the simulator's admin API, so the stall is ours, not
// the clock's. SYNC_STALL_MINUTES is 0.03 (1.8 s) here.
const dataDir = tempDataDir('nodekeep-syncprog-');
const env = { ...fastFleetEnv(dataDir), SYNC_STALL_MINUTES: '0.03' };
const profilesFile = path.join(dataDir, 'daemons.json');
const shipped = JSON.parse(fs.readFileSync(profilesFile, 'utf8'));
for (const p of Object.values<{ run?: string; sync_seconds?: number }>(shipped.profiles))
  if (p.run === 'simulator') p.sync_seconds = 20;
fs.writeFileSync(profilesFile, JSON.stringify(shipped));
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(env, { dataDir });
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const simAdmin = (p: string, body: unknown) => {
  const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
  return fetch(`http://127.0.0.1:${simPort}/admin${p}`, { method: 'POST', body: JSON.stringify(body) });
};
const progressOf = async (mnId: string) => {
  const row = await s.deps.db
    .selectFrom('sync_progress')
    .innerJoin('nodes', 'nodes.id', 'sync_progress.node_id')
    .selectAll('sync_progress')
    .where('nodes.mn_id', '=', mnId)
    .executeTakeFirst();
  return row;
};
const kindsOf = async (userId: number, mnId: string) =>
  (
    await s.deps.db
      .selectFrom('notifications')
      .select('kind')
      .where('user_id', '=', userId)
      .where('params', 'like', `%"${mnId}"%`)
      .orderBy('id')
      .execute()
  ).map((r) => r.kind);

describe('sync progress on the simulator', () => {
  it('shows rising progress with an estimate, alerts a stalled sync once, and shows nothing once synced', async () => {
    const u = await freshUser(s.deps);
    const created = await cli('fleet', 'create', 'dash', '--user', u.username, '--plan', 'cloud');
    expect(created.code).toBe(0);
    const mnId = /node (\S+) requested/.exec(created.out)![1];

    const first = await waitFor(async () => syncProgressOf(await progressOf(mnId)), 30_000, 'first progress');
    const withEta = await waitFor(
      async () => {
        const p = syncProgressOf(await progressOf(mnId));
        return p && p.eta_s !== null && p.percent > first.percent ? p : null;
      },
      20_000,
      'an estimate',
    );
    expect(withEta.headers).toBeGreaterThan(withEta.blocks);

    expect((await simAdmin(`/nodes/${mnId}/sync`, { stalled: true })).status).toBe(200);
    await waitFor(async () => (await kindsOf(u.id, mnId)).includes('sync_stalled'), 20_000, 'sync_stalled');
    expect((await simAdmin(`/nodes/${mnId}/sync`, { stalled: false })).status).toBe(200);
    await waitFor(async () => (await kindsOf(u.id, mnId)).includes('sync_resumed'), 20_000, 'sync_resumed');
    await waitFor(async () => (await progressOf(mnId))?.synced === 1, 30_000, 'synced');
    expect(syncProgressOf(await progressOf(mnId))).toBeNull();
    const kinds = await kindsOf(u.id, mnId);
    expect(kinds.filter((k) => k === 'sync_stalled')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'sync_resumed')).toHaveLength(1);
  }, 120_000);
});
