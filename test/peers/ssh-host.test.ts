import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { startPodman } from '../support/podman';
import { tempDataDir } from '../support/server';
import { sshdSkip, startSshd, type Sshd } from '../support/sshd';

// `nodekeep doctor` against a Docker host reached over SSH, for real: an OpenSSH server
// on 127.0.0.1 whose login runs `docker system dial-stdio` (docker-modem's request) on
// the test's private Podman. Peers tier (vitest.config.ts): real daemons.
const root = tempDataDir('nodekeep-ssh-host-');
const dataDir = path.join(root, 'platform');

const started = await startPodman();
const skip = 'skip' in started ? started.skip : sshdSkip();
if (skip) console.warn(`doctor's SSH host line untested: ${skip}`);
let sshd: Sshd | undefined;

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, HOST_DISK_MIN_FREE_GB: '0.1' }, { out: (l) => lines.push(l) });
  return { code, lines };
};

afterAll(async () => {
  await sshd?.stop();
  if (!('skip' in started)) await started.stop();
  fs.rmSync(root, { recursive: true, force: true });
}, 90_000);

describe.skipIf(!!skip)('nodekeep doctor and a Docker host over SSH', () => {
  it('passes through sshd and dial-stdio with the authorized key, fails with what to do once the key is refused', async () => {
    if ('skip' in started) return;
    sshd = await startSshd(path.join(root, 'sshd'), started.socketPath);
    const current = sshd.newKey('id_current');
    const revoked = sshd.newKey('id_revoked');
    sshd.authorize([current, revoked]);
    const add = (name: string, key: string, ...more: string[]) =>
      cli(
        'hosts',
        'add',
        name,
        '--engine',
        'docker',
        '--url',
        sshd!.url,
        '--ipv4',
        '127.0.0.1',
        '--ssh-key',
        key,
        ...more,
      );
    // Both keys reach the host when it is added (adding checks that it answers).
    expect(await add('sshok', current, '--init')).toEqual({ code: 0, lines: ['host sshok added'] });
    expect(await add('sshold', revoked)).toEqual({ code: 0, lines: ['host sshold added'] });
    // The host's owner drops one key: the platform still holds it.
    sshd.authorize([current]);

    const r = await cli('doctor');
    expect(r.code).toBe(1);
    expect(r.lines.find((l) => l.includes('host sshok:'))).toBe(
      `ok    host sshok: ${sshd.url} answers over SSH, 0 nodes of this platform on it`,
    );
    // ssh2's own words for a refused key, then what the operator should check.
    expect(r.lines.find((l) => l.includes('host sshold:'))).toBe(
      `FAIL  host sshold: docker host ${sshd.url} refused the SSH login: All configured authentication methods failed — check that ssh with the host's key reaches ${sshd.url} and that its user may run docker`,
    );
    // No key material in what the operator sees.
    const keyBody = fs.readFileSync(revoked, 'utf8').split('\n')[1];
    expect(r.lines.join('\n')).not.toContain(keyBody);
  });
});
