import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { podmanWithDebianRoot, TEST_ROOTFS, type Podman } from '../support/podman';
import { waitFor } from '../support/wait';
import { newUserInput } from '../support/users';
import { builtExecutable } from '../support/executable';

// docs/self-hosting.md followed on a Debian machine without Node.js: a minimal Debian
// with systemd as PID 1 (a container of Podman's, privileged so that the unit's
// hardening really applies), the executable checked and installed by its own
// `nodekeep install` (user, folders, environment file, the unit it carries, enabled and
// started), which a second run finds done.
// The platform is used over HTTP and through `nk`, restarted by systemd (the daemon runs
// on and is adopted), backed up, restored, and stopped with its nodes; a data folder it
// must not run on fails the start once, not every 5 s.

const ROOTFS = TEST_ROOTFS;
const NAME = `nk-systemd-${process.pid}`;
const ENV_FILE = '/etc/nodekeep/nodekeep.env';

const started = await podmanWithDebianRoot('lib/systemd/systemd', 'systemd test');
const skip = 'skip' in started ? started.skip : null;
const pm = () => started as Podman;

/** A shell script run as root on the machine; its output, or the error with it. */
const sh = (script: string) => pm().cli(['exec', NAME, 'bash', '-euo', 'pipefail', '-c', script]);
/** The operator's `nk` of docs/self-hosting.md. */
const nk = (args: string) => sh(`runuser -u nodekeep -- nodekeep --env-file ${ENV_FILE} ${args}`);

/**
 * The executable of this checkout, used where the cache keeps it (built once per content:
 * test/support/executable.ts). Never copied into dist/: another file's build writes there.
 */
function ensureExecutable(): string {
  expect(fs.existsSync('dist/client/index.html'), 'the client is built (npm run test:peers builds it first)').toBe(
    true,
  );
  return builtExecutable();
}

let port = 0;
const url = (p: string) => `http://127.0.0.1:${port}${p}`;
const post = (p: string, body: unknown) =>
  fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const healthy = () =>
  fetch(url('/healthz')).then(
    (r) => r.status,
    () => 0,
  );
/** The simulator processes on the machine (no procps there: read /proc). */
const simulators = async () =>
  (
    await sh(
      `for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -q '^/usr/local/bin/nodekeep __simulator' && echo \${p#/proc/}; done; true`,
    )
  )
    .split('\n')
    .filter(Boolean)
    .map(Number);

beforeAll(async () => {
  if (skip) return;
  const exe = ensureExecutable();
  port = await freePort();
  // The host's network (the test reaches the server on loopback); its own everything else.
  await pm().cli([
    'run',
    '-d',
    '--name',
    NAME,
    '--privileged',
    '--network',
    'host',
    '--systemd',
    'always',
    '--rootfs',
    `${ROOTFS}:O`,
    '/sbin/init',
  ]);
  await waitFor(
    async () => /^(running|degraded)/.test(await sh('systemctl is-system-running || true')),
    30_000,
    'systemd to boot',
  );
  await pm().cli(['cp', exe, `${NAME}:/root/nodekeep-linux-x64`]);
  await pm().cli(['cp', `${exe}.sha256`, `${NAME}:/root/nodekeep-linux-x64.sha256`]);
}, 300_000);

afterAll(async () => {
  if (skip) return;
  await pm()
    .cli(['rm', '-f', '-t', '0', NAME])
    .catch(() => {});
  await pm().stop();
});

describe.skipIf(!!skip)('Nodekeep under systemd on Debian, as docs/self-hosting.md says', () => {
  it('installs, serves, restarts keeping its daemons, backs up and restores, and stops with its nodes', async () => {
    // What the operator would read first: the unit's state and its journal.
    onTestFailed(async () =>
      console.error(
        await sh(
          'systemctl status nodekeep --no-pager || true; journalctl -u nodekeep --no-pager -o cat | tail -40',
        ).catch((e: Error) => e.message),
      ),
    );
    expect(await sh('command -v node || echo "no node"')).toMatch(/no node/);

    // Install, as the docs say: the file checked, then `install` with the public address.
    // The test's own settings (the simulator, its port) are in the environment file first:
    // install keeps what is there and adds the rest.
    const install = `cd /root && ./nodekeep-linux-x64 install --public-url http://127.0.0.1:${port} --mail-from 'Nodekeep <noreply@example.com>'`;
    expect(await sh(`cd /root && sha256sum -c nodekeep-linux-x64.sha256`)).toBe('nodekeep-linux-x64: OK\n');
    const dry = await sh(`${install} --dry-run`);
    expect(dry).toMatch(/^would     create system user nodekeep/m);
    expect(dry).toMatch(/^Dry run: \d+ steps would change this system; nothing was changed\.$/m);
    expect(await sh('id nodekeep 2>&1 || true')).toMatch(/no such user/);
    await sh(`mkdir -p /etc/nodekeep && printf '%s\\n' PORT=${port} FLEET_SIMULATOR=true > ${ENV_FILE}`);
    const installed = await sh(`${install} 2>&1`);
    expect(installed).toMatch(/^done      created system user nodekeep$/m);
    expect(installed).toMatch(/^done      systemd unit \/etc\/systemd\/system\/nodekeep\.service \(644, root:root\)$/m);
    expect(installed).toMatch(/^done      nodekeep\.service started$/m);
    expect(installed.trim().split('\n').at(-1)).toBe(
      `Nodekeep: http://127.0.0.1:${port} (no operator yet? open the one-time setup link the service prints: journalctl -u nodekeep | grep setup)`,
    );
    expect(await sh('nodekeep --version')).toMatch(/^nodekeep \d+\.\d+\.\d+/);
    // What it wrote: the settings kept, its own added, readable by root and the service only.
    const envFile = await sh(`cat ${ENV_FILE}; stat -c '%a %U:%G' ${ENV_FILE}`);
    expect(envFile).toContain(`PORT=${port}\nFLEET_SIMULATOR=true\n`);
    expect(envFile).toContain(`PUBLIC_URL=http://127.0.0.1:${port}\n`);
    expect(envFile).toContain('MAIL_FROM="Nodekeep <noreply@example.com>"\n');
    expect(envFile).toMatch(/^640 root:nodekeep$/m);
    // The unit it carries is the repository's.
    expect(await sh('cat /etc/systemd/system/nodekeep.service')).toBe(
      fs.readFileSync('deploy/nodekeep.service', 'utf8'),
    );
    await expect.poll(healthy, { timeout: 30_000 }).toBe(200);
    expect((await fetch(url('/readyz'))).status).toBe(200);
    // A second run finds everything done and leaves the running service alone.
    const pidBefore = await sh('systemctl show -p MainPID --value nodekeep');
    expect(await sh(`${install} 2>&1`)).toMatch(/^Nothing changed: Nodekeep is installed as asked\.$/m);
    expect(await sh('systemctl show -p MainPID --value nodekeep')).toBe(pidBefore);

    // The unit's hardening holds: its own user, no capabilities, a read-only system but
    // for the data folder.
    const pid = Number(await sh('systemctl show -p MainPID --value nodekeep'));
    const status = await sh(`cat /proc/${pid}/status`);
    const uid = (await sh('id -u nodekeep')).trim();
    expect(status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s`, 'm'));
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    const mounts = await sh(`cat /proc/${pid}/mountinfo`);
    expect(mounts).toMatch(/^\S+ \S+ \S+ \/ \/ ro,/m);
    expect(mounts).toMatch(/^\S+ \S+ \S+ \S+ \/var\/lib\/nodekeep rw,/m);

    // A customer registers and logs in; the operator funds them and deploys a node.
    const user = newUserInput();
    expect((await post('/public_api/register', user)).status).toBe(200);
    expect((await post('/public_api/login', { username: user.username, password: user.password })).status).toBe(200);
    expect(await nk(`billing adjust ${user.username} +20 --reason welcome`)).toMatch(/credited \$20\.00/);
    const node = /node (dash-[0-9a-f]+) requested/.exec(
      await nk(`fleet create dash --user ${user.username} --plan dedicated`),
    )![1];
    const listed = new RegExp(`${node}\\s.*\\s(syncing|running)\\s`);
    await expect.poll(() => nk('fleet nodes'), { timeout: 30_000 }).toMatch(listed);
    const [sim] = await simulators();
    expect(sim).toBeGreaterThan(0);

    // An upgrade as the docs say (install writes a new file while the old one runs, then
    // a restart): the stop is quick, and the daemon runs through it and is adopted.
    const t0 = Date.now();
    await sh('install -m 755 /root/nodekeep-linux-x64 /usr/local/bin/nodekeep && systemctl restart nodekeep');
    expect(Date.now() - t0).toBeLessThan(10_000);
    await expect.poll(healthy, { timeout: 30_000 }).toBe(200);
    expect(await simulators()).toEqual([sim]);
    await expect
      .poll(() => sh('journalctl -u nodekeep --no-pager -o cat'), { timeout: 10_000 })
      .toMatch(new RegExp(`"msg":"local engine adopted running daemon".*"pid":${sim}\\b`));
    expect(await sh('journalctl -u nodekeep --no-pager -o cat')).toMatch(
      /"msg":"nodekeep stopped".*"daemons":"left running"/,
    );
    await expect.poll(() => nk('fleet nodes'), { timeout: 15_000 }).toMatch(listed);

    // Backups: one now, while the server runs; a restore with the server stopped.
    await nk('backup /var/lib/nodekeep/data/backups/nodekeep-now.tar.gz');
    const customer = newUserInput();
    expect((await post('/public_api/register', customer)).status).toBe(200);
    // A node deployed after the backup: the restored database will not know it.
    const later = /node (dash-[0-9a-f]+) requested/.exec(
      await nk(`fleet create dash --user ${user.username} --plan dedicated`),
    )![1];
    await expect
      .poll(() => nk('fleet nodes'), { timeout: 30_000 })
      .toMatch(new RegExp(`${later}\\s.*\\s(syncing|running)\\s`));
    const restored = await sh(`systemctl stop nodekeep
      runuser -u nodekeep -- nodekeep --env-file ${ENV_FILE} restore /var/lib/nodekeep/data/backups/nodekeep-now.tar.gz
      systemctl start nodekeep`);
    expect(restored).toMatch(/restored/i);
    await expect.poll(healthy, { timeout: 30_000 }).toBe(200);
    const users = await nk('users list');
    expect(users).toContain(user.email);
    expect(users).not.toContain(customer.email); // registered after the backup
    // The node the backup knows runs on; the later one was stopped at the start, and said.
    await expect.poll(() => nk('fleet nodes'), { timeout: 15_000 }).toMatch(listed);
    expect(await nk('fleet nodes')).not.toContain(later);
    expect(await sh('journalctl -u nodekeep --no-pager -o cat')).toMatch(
      new RegExp(
        `"msg":"fleet: stopped the local daemons of nodes the database does not know or has not placed; their files are kept".*"nodes":\\["${later}"\\]`,
      ),
    );
    // The simulator ran on through the stop; the later node has left it.
    const simPort = Number(await sh('cat /var/lib/nodekeep/data/fleet/local/_simulator/port'));
    const simNodes = async () =>
      ((await (await fetch(`http://127.0.0.1:${simPort}/admin/nodes`)).json()) as { nodes: string[] }).nodes;
    expect(await simNodes()).toContain(node);
    expect(await simNodes()).not.toContain(later);
    expect((await post('/public_api/login', { username: user.username, password: user.password })).status).toBe(200);

    // Stopping the nodes too, as the docs say: the server, then the daemons it left.
    expect(
      await sh(`systemctl stop nodekeep && runuser -u nodekeep -- nodekeep --env-file ${ENV_FILE} fleet stop-local`),
    ).toMatch(/stopped 1 daemon: _simulator/);
    expect(await sh('systemctl is-active nodekeep || true')).toMatch(/^inactive/);
    expect(await simulators()).toEqual([]);
    expect(await healthy()).toBe(0);

    // A data folder this build must not run on (a newer Nodekeep's database): the start
    // fails with exit code 3, and systemd does not try again every 5 s (each try wrote a
    // pre-upgrade backup before RestartPreventExitStatus).
    const host = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-systemd-db-'));
    try {
      await pm().cli(['cp', `${NAME}:/var/lib/nodekeep/data/nodekeep.sqlite`, host]);
      for (const side of ['-wal', '-shm'])
        await pm()
          .cli(['cp', `${NAME}:/var/lib/nodekeep/data/nodekeep.sqlite${side}`, host])
          .catch(() => {});
      const db = new SQLite(path.join(host, 'nodekeep.sqlite'));
      db.prepare(
        "INSERT INTO kysely_migration (name, timestamp) VALUES ('2099-01-01T0000-from-the-future', '2099-01-01')",
      ).run();
      db.pragma('journal_mode = DELETE');
      db.close();
      await sh('rm -f /var/lib/nodekeep/data/nodekeep.sqlite-wal /var/lib/nodekeep/data/nodekeep.sqlite-shm');
      await pm().cli(['cp', path.join(host, 'nodekeep.sqlite'), `${NAME}:/var/lib/nodekeep/data/nodekeep.sqlite`]);
      await sh(
        'chown nodekeep:nodekeep /var/lib/nodekeep/data/nodekeep.sqlite && chmod 600 /var/lib/nodekeep/data/nodekeep.sqlite',
      );
    } finally {
      fs.rmSync(host, { recursive: true, force: true });
    }
    await sh('systemctl start nodekeep || true');
    const unit = async (...props: string[]) =>
      (await Promise.all(props.map((p) => sh(`systemctl show -p ${p} --value nodekeep`))))
        .map((v) => v.trim())
        .join(' ');
    // systemd decides at the exit, in one step: a restart to come is the state auto-restart
    // (ActiveState activating) for RestartSec, with a job queued; "failed" that any later query
    // still reads, with no job, is the decision not to restart (no need to sit out RestartSec).
    await expect
      .poll(() => unit('ActiveState', 'SubState', 'ExecMainStatus'), { timeout: 30_000 })
      .toBe('failed failed 3');
    expect(await unit('ActiveState', 'SubState', 'NRestarts')).toBe('failed failed 0');
    expect((await sh('systemctl list-jobs --no-legend nodekeep.service')).trim()).toBe('');
    expect(await sh('journalctl -u nodekeep --no-pager -o cat')).toMatch(/was last used by a newer Nodekeep/);
  }, 240_000);
});
