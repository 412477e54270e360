import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/server/nodes/daemon-spec';

/**
 * A private OpenSSH server on 127.0.0.1 that stands in for a remote Docker host: its
 * logins run nothing but `docker system dial-stdio` (what docker-modem asks for over
 * SSH), answered by `podman system dial-stdio` against a Docker API socket of the
 * test's own. Its own config, host key and authorized keys; the machine's sshd, keys
 * and /run are left as they are.
 */
export type Sshd = {
  /** `ssh://<user>@127.0.0.1:<port>`, for `hosts add --url`. */
  url: string;
  /** Makes a client key pair; returns the private key's path. */
  newKey(name: string): string;
  /** The keys the server accepts from now on (each new connection reads the file). */
  authorize(keyPaths: string[]): void;
  stop(): Promise<void>;
};

const SSHD = '/usr/sbin/sshd';

/** Why this machine cannot run the SSH host test, or null; CI (NODEKEEP_REQUIRE_PODMAN=1) fails instead. */
export function sshdSkip(): string | null {
  const reason = !fs.existsSync(SSHD)
    ? 'sshd is not installed; apt-get install openssh-server'
    : process.getuid?.() !== 0
      ? 'the sshd test mounts a private /run and needs root'
      : null;
  if (reason && process.env.NODEKEEP_REQUIRE_PODMAN === '1') throw new Error(reason);
  return reason;
}

export async function startSshd(dir: string, dockerSocket: string): Promise<Sshd> {
  fs.mkdirSync(dir, { recursive: true });
  const user = os.userInfo().username;
  const port = await freePort();
  const keygen = (file: string) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  const hostKey = path.join(dir, 'host_ed25519');
  keygen(hostKey);
  // The forced command: only the exact request docker-modem makes gets a Docker API.
  const shim = path.join(dir, 'dial-stdio.sh');
  fs.writeFileSync(
    shim,
    `#!/bin/sh
if [ "$SSH_ORIGINAL_COMMAND" != "docker system dial-stdio" ]; then
  echo "this key runs only docker system dial-stdio, not: $SSH_ORIGINAL_COMMAND" >&2
  exit 126
fi
exec podman --url unix://${dockerSocket} system dial-stdio
`,
    { mode: 0o755 },
  );
  const authorizedKeys = path.join(dir, 'authorized_keys');
  const authorize = (keyPaths: string[]) =>
    fs.writeFileSync(
      authorizedKeys,
      keyPaths.map((k) => `restrict,command="${shim}" ${fs.readFileSync(`${k}.pub`, 'utf8').trim()}\n`).join(''),
    );
  authorize([]);
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    `ListenAddress 127.0.0.1
Port ${port}
HostKey ${hostKey}
PidFile none
AuthorizedKeysFile ${authorizedKeys}
AllowUsers ${user}
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel VERBOSE
`,
  );
  const log = path.join(dir, 'sshd.log');
  // sshd run as root insists on its privilege-separation folder /run/sshd, which only the
  // machine's own ssh service creates: a private mount namespace gives it one of its own.
  const child: ChildProcess = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      `mount -t tmpfs -o mode=0755 nk-sshd /run && mkdir -m 0755 /run/sshd && exec ${SSHD} -D -e -f "$1"`,
      'sh',
      config,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const logFd = fs.openSync(log, 'a');
  let seen = '';
  // 'close', not 'exit': sshd's last stderr lines can arrive after it exited, and they
  // are written to the log file, which stop() closes.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      fs.writeSync(logFd, chunk);
      seen += chunk.toString();
      if (seen.includes(`Server listening on 127.0.0.1 port ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`sshd exited (${code}) before listening: ${seen.trim()}`)));
  });
  return {
    url: `ssh://${user}@127.0.0.1:${port}`,
    newKey(name) {
      const file = path.join(dir, name);
      keygen(file);
      return file;
    },
    authorize,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.closeSync(logFd);
    },
  };
}
