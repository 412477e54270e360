import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledCatalogPath } from '../../src/server/coins/import';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import { loadProfiles, productionProfile } from '../../src/server/fleet/profiles';
import { buildSpec } from '../../src/server/nodes/daemon-spec';
import { bothProcessesScript } from '../../src/server/fleet/validator-client';
import { waitFor } from '../support/daemons';
import { tempDataDir } from '../support/server';

// The beacon node and the validator client run as one supervised script per node: real
// processes here (sleep / sh stand in for the two Lighthouse commands).

const dir = tempDataDir('nodekeep-vcproc-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function runScript(script: string) {
  const child = spawn('/bin/bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exit, out: () => out };
}

describe('the two-process script', () => {
  it('stops the daemon and exits with the client’s code when the client exits', async () => {
    const pidFile = path.join(dir, 'daemon.pid');
    const r = runScript(
      bothProcessesScript(['sh', '-c', `echo $$ > ${pidFile}; exec sleep 30`], ['sh', '-c', 'sleep 0.5; exit 3']),
    );
    const daemonPid = await waitFor(
      async () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : null),
      15_000,
      'daemon started',
    );
    expect(alive(daemonPid)).toBe(true);
    expect(await r.exit).toBe(3);
    await waitFor(async () => !alive(daemonPid), 15_000, 'daemon stopped with the client');
  });

  it('stops both on SIGTERM (the engine stopping the node)', async () => {
    const pids = [path.join(dir, 'a.pid'), path.join(dir, 'b.pid')];
    const r = runScript(
      bothProcessesScript(
        ['sh', '-c', `echo $$ > ${pids[0]}; exec sleep 30`],
        ['sh', '-c', `echo $$ > ${pids[1]}; exec sleep 30`],
      ),
    );
    const both = await waitFor(
      async () =>
        pids.every((p) => fs.existsSync(p) && fs.readFileSync(p, 'utf8').trim())
          ? pids.map((p) => Number(fs.readFileSync(p, 'utf8')))
          : null,
      15_000,
      'both started',
    );
    r.child.kill('SIGTERM');
    expect(await r.exit).toBe(143);
    await waitFor(async () => both.every((p) => !alive(p)), 15_000, 'both stopped');
  });

  it('passes arguments with quotes and spaces through unchanged (no shell expansion)', async () => {
    const odd = `it's "quoted" $(echo no) $HOME`;
    const r = runScript(bothProcessesScript(['printf', '%s\\n', odd], ['sleep', '1']));
    await r.exit;
    expect(r.out()).toBe(`${odd}\n`);
  });
});

describe('a validator node on this machine (local engine)', () => {
  it('runs /bin/bash with both Lighthouse commands at the profile program path, the client on loopback', async () => {
    const profile = productionProfile(loadProfiles(bundledCatalogPath('daemons.json')), 'gno')!.profile;
    const node = {
      mn_id: 'gno-vc1',
      user_id: 3,
      package: 'dedicated',
      rpc_user: null,
      rpc_password: null,
      server_ip: '203.0.113.5',
      server_ip6: null,
      output_text: null,
    } as unknown as Masternode;
    const run = {
      pubkey: 'b2'.repeat(48),
      keystore: '{}',
      password: 'pw',
      feeRecipient: '0x' + 'c'.repeat(40),
      token: 'f'.repeat(64),
    };
    const { spec } = await buildSpec(
      node,
      { id: 'gno', label: 'Gnosis' } as CoinRecord,
      profile,
      { id: 1, engine: 'local' } as Host,
      dir,
      { validator: run },
    );
    const data = path.join(dir, 'data', 'gno-vc1');
    expect(spec.program).toBe('/bin/bash');
    expect(spec.args[0]).toBe('-c');
    expect(spec.args[1]).toContain(`'/usr/local/bin/lighthouse' 'bn' '--network' 'gnosis'`);
    expect(spec.args[1]).toContain(
      `'/usr/local/bin/lighthouse' 'vc' '--network' 'gnosis' '--datadir' '${data}' '--validators-dir' '${data}'`,
    );
    expect(spec.args[1]).toContain(
      `'--http-address' '127.0.0.1' '--unencrypted-http-transport' '--http-port' '${spec.ports.keymanager}' '--http-token-path' '${data}/api-token.txt'`,
    );
    expect(spec.files?.find((f) => f.name === 'validator_definitions.yml')?.content).toContain(
      `voting_keystore_path: "${data}/voting-keystore.json"`,
    );
    expect(spec.args.join(' ')).not.toContain(run.token);
  });
});
