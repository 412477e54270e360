import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRun } from '../support/cli';
import { DAEMON_BUDGET_MS, haveBinary, pidsMatching, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser } from '../support/users';

// `fleet restart` on a real litecoind run by the local engine: a healthy daemon is restarted
// and answers again (exit 0); a daemon killed with its program gone from the machine cannot
// be, and the command says why and exits 1, instead of promising a restart.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const dataDir = tempDataDir('nodekeep-restart-ltc-');
// The node's program is a copy the test can take away, as an operator's mistaken cleanup would.
const program = path.join(dataDir, 'bin', 'litecoind');
const profilesFile = path.join(dataDir, 'daemons.json');
const env = {
  MONITOR_NODE_SECONDS: '0.5',
  MONITOR_NETWORK_SECONDS: '0.5',
  FLEET_SIMULATOR: 'true',
  DAEMON_PROFILES_FILE: profilesFile,
};
const catalogFile = path.join(dataDir, 'ltc-coins.json');
let s: TestServer;

const cli = (...args: string[]) => cliRun(args, { DATA_DIR: dataDir, ...env });
const nodeRow = (id: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  fs.mkdirSync(path.dirname(program), { recursive: true });
  fs.copyFileSync(LITECOIND, program);
  fs.chmodSync(program, 0o755);
  const profiles = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8'));
  profiles.profiles['litecoind-regtest'].program = program;
  fs.writeFileSync(profilesFile, JSON.stringify(profiles));
  const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
  const base = shipped.coins.find((c: { id: string }) => c.id === 'pivx');
  fs.writeFileSync(
    catalogFile,
    JSON.stringify({
      ...shipped,
      coins: [{ ...base, id: 'ltc', label: 'Litecoin (regtest)', ticker: 'LTC', daemon: 'litecoind-regtest' }],
    }),
  );
  expect((await cli('catalog', 'import', catalogFile)).code).toBe(0);
  s = await startTestServer(env, { dataDir });
}, 60_000);
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

describe.skipIf(!haveBinary(LITECOIND))('fleet restart on a real litecoind', () => {
  it('restarts a healthy daemon and says it answers; a killed daemon whose program is gone fails with the reason', async () => {
    const owner = await freshUser(s.deps, { prefix: 'rsowner' });
    const created = await cli('fleet', 'create', 'ltc', '--user', owner.username, '--plan', 'dedicated');
    expect(created.code).toBe(0);
    const id = /node (\S+) requested/.exec(created.out)![1];
    await waitFor(async () => (await nodeRow(id)).first_answer_at, DAEMON_BUDGET_MS, 'the daemon answers');

    const pidFile = path.join(dataDir, 'fleet', 'local', id, 'pid');
    const before = fs.readFileSync(pidFile, 'utf8');
    const healthy = await cli('fleet', 'restart', id);
    expect(healthy.err).toBe('');
    expect(healthy.code).toBe(0);
    expect(healthy.out).toMatch(new RegExp(`${id} restarted; its daemon answers`));
    expect(fs.readFileSync(pidFile, 'utf8')).not.toBe(before);

    // The daemon is killed and its program removed: nothing can bring it back.
    fs.rmSync(program);
    process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    const gone = await cli('fleet', 'restart', id);
    expect(gone.code).toBe(1);
    expect(gone.out).not.toMatch(/restarted;/);
    expect(gone.err).toMatch(
      new RegExp(`error: ${id} could not be restarted: cannot start ${program} for ${id}: .*ENOENT`),
    );
  }, 180_000);
});
