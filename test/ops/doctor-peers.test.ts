import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { openDatabase } from '../../src/server/db/open';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { haveBinary, pidsMatching, rpc, waitFor } from '../support/daemons';
import { startPodman } from '../support/podman';
import { tempDataDir } from '../support/server';

// `nodekeep doctor` against the peers the operator points it at: a real litecoind in
// regtest behind a deposit currency (with the right credentials, wrong ones, and a
// closed port), and a private Podman's Docker API as a host (and a host whose socket is
// gone). Peers tier (vitest.config.ts): real daemons.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const root = tempDataDir('nodekeep-doctor-peers-');
const chainDir = path.join(root, 'chain');
const dataDir = path.join(root, 'platform');
const auth = { user: 'doc', password: randomBytes(12).toString('hex') };
const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;

const started = await startPodman();
const podmanSkip = 'skip' in started ? started.skip : null;
if (podmanSkip) console.warn(`doctor's host lines untested: ${podmanSkip}`);
let daemon: ChildProcess | undefined;
let rpcPort = 0;
let closedPort = 0;

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, HOST_DISK_MIN_FREE_GB: '0.1' }, { out: (l) => lines.push(l) });
  return { code, lines };
};
const addCurrency = (id: string, port: number, password: string) =>
  cli(
    'deposits',
    'add',
    id,
    '--label',
    `Litecoin ${id}`,
    '--ticker',
    'ltc',
    '--confirmations',
    '3',
    '--price-coin',
    'litecoin',
    '--rpc-url',
    `http://127.0.0.1:${port}`,
    '--rpc-user',
    auth.user,
    '--rpc-password',
    password,
    '--xpub',
    tpub,
    '--address',
    'wpkh:rltc',
    '--init',
  );

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  fs.mkdirSync(chainDir, { recursive: true });
  rpcPort = await freePort();
  closedPort = await freePort();
  const [p2p, onion] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(chainDir, 'litecoin.conf'),
    `regtest=1\nserver=1\nlisten=1\ndiscover=0\ndnsseed=0\nupnp=0\nrpcuser=${auth.user}\nrpcpassword=${auth.password}\n[regtest]\nrpcport=${rpcPort}\nrpcbind=127.0.0.1\nrpcallowip=127.0.0.1\nport=${p2p}\nbind=127.0.0.1:${p2p}\nbind=127.0.0.1:${onion}=onion\n`,
  );
  daemon = spawn(LITECOIND, [`-conf=${chainDir}/litecoin.conf`, `-datadir=${chainDir}`], { stdio: 'ignore' });
  await waitFor(
    async () =>
      rpc({ endpoint: { host: '127.0.0.1', port: rpcPort }, auth }, 'getblockcount', [], v.number())
        .then(() => true)
        .catch(() => false),
    60_000,
    'litecoind answers',
  );
}, 120_000);

afterAll(async () => {
  if (daemon?.pid) {
    daemon.kill('SIGTERM');
    await waitFor(async () => daemon!.exitCode !== null || daemon!.signalCode !== null, 60_000, 'litecoind stops');
  }
  expect(pidsMatching(chainDir)).toEqual([]);
  if (!('skip' in started)) await started.stop();
  fs.rmSync(root, { recursive: true, force: true });
}, 90_000);

describe.skipIf(!haveBinary(LITECOIND))('nodekeep doctor against its peers', () => {
  it('a deposit daemon: passes with its RPC and wallet, fails with what to do on a closed port or wrong credentials', async () => {
    expect((await addCurrency('ltc', rpcPort, auth.password)).code).toBe(0);
    expect((await addCurrency('ltcclosed', closedPort, auth.password)).code).toBe(0);
    expect((await addCurrency('ltcwrong', rpcPort, 'not-the-password')).code).toBe(0);
    expect((await addCurrency('ltcgone', rpcPort, auth.password)).code).toBe(0);
    // The watcher's wallet for ltc, as its first pass makes it (blank, watch-only).
    await rpc(
      { endpoint: { host: '127.0.0.1', port: rpcPort }, auth },
      'createwallet',
      ['nodekeep-ltc', true, true],
      v.unknown(),
    );
    // ltcgone has handed out addresses into a wallet the daemon no longer has (a lost wallets folder).
    const db = openDatabase(path.join(dataDir, 'nodekeep.sqlite'));
    await db
      .updateTable('deposit_currencies')
      .set({ imported_to: 21, next_index: 1 })
      .where('id', '=', 'ltcgone')
      .execute();
    await db.destroy();
    const r = await cli('doctor');
    expect(r.code).toBe(1);
    const line = (id: string) => r.lines.find((l) => l.includes(`deposits Litecoin ${id} (${id}):`));
    expect(line('ltc')).toBe(
      'ok    deposits Litecoin ltc (ltc): regtest chain at block 0, still syncing; watch-only wallet nodekeep-ltc loaded',
    );
    expect(line('ltcgone')).toBe(
      "FAIL  deposits Litecoin ltcgone (ltcgone): regtest chain at block 0, still syncing; wallet nodekeep-ltcgone is gone, with 1 address handed out — restore the wallet nodekeep-ltcgone into the daemon's wallets folder (or point the currency at the daemon that has it)",
    );
    expect(line('ltcclosed')).toMatch(
      new RegExp(
        `^FAIL  deposits Litecoin ltcclosed \\(ltcclosed\\): http://127.0.0.1:${closedPort}: .*ECONNREFUSED.* — start the daemon that serves http://127.0.0.1:${closedPort} \\(check its rpcbind and rpcport\\)$`,
      ),
    );
    expect(line('ltcwrong')).toMatch(/refused the RPC user and password \(HTTP 401\) — give the daemon the RPC user/);
    expect(r.lines.join('\n')).not.toContain('not-the-password');
    expect(r.lines.join('\n')).not.toContain(auth.password);
  });

  it.skipIf(!!podmanSkip)(
    'a Docker host: passes when its API answers through the engine, fails with what to do when its socket is gone',
    async () => {
      if ('skip' in started) return;
      // A second way to the same socket, removed after the host is added: the socket is gone.
      const link = path.join(root, 'gone.sock');
      fs.symlinkSync(started.socketPath, link);
      const add = (name: string, url: string) =>
        cli('hosts', 'add', name, '--engine', 'docker', '--url', url, '--ipv4', '127.0.0.1');
      expect((await add('podman1', started.socketUrl)).code).toBe(0);
      expect((await add('gone1', `unix://${link}`)).code).toBe(0);
      fs.rmSync(link);
      const r = await cli('doctor');
      expect(r.code).toBe(1);
      expect(r.lines.find((l) => l.includes('host podman1:'))).toBe(
        `ok    host podman1: ${started.socketUrl} answers, 0 nodes of this platform on it`,
      );
      expect(r.lines.find((l) => l.includes('host gone1:'))).toMatch(
        new RegExp(
          `^FAIL  host gone1: docker host unix://${link} unreachable: .*ENOENT.* — start the Docker or Podman service that serves unix://${link}`,
        ),
      );
      // The local engine runs in this process's machine: no line of its own.
      expect(r.lines.some((l) => l.includes('host local:'))).toBe(false);
    },
  );
});
