import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { builtExecutable, EXECUTABLE_NAME } from '../support/executable';
import { podmanWithDebianRoot, TEST_ROOTFS, type Podman } from '../support/podman';
import { newUserInput } from '../support/users';
import { waitFor } from '../support/wait';

// deploy/Containerfile as docs/self-hosting.md ("Running in a container") uses it: the image
// built on a private Podman from the executable of this checkout and a Debian base (the
// Debian root CI makes, imported: nothing can be pulled here), run with a named volume for
// its data folder and its port published on loopback. It turns healthy through its own
// HEALTHCHECK, serves over HTTP, runs as its own user, keeps its data through a restart and
// through a new container on the same volume (an upgrade), stops on SIGINT (its local daemons
// with it), and is backed up while it runs and restored in a one-off container.

const ROOTFS = TEST_ROOTFS;
const BASE_IMAGE = 'localhost/nodekeep-test/debian:bookworm';
const IMAGE = 'localhost/nodekeep-test/nodekeep:test';
const NAME = `nk-image-${process.pid}`;
const VOLUME = `nk-image-data-${process.pid}`;

const started = await podmanWithDebianRoot('var/lib/dpkg/status', 'container image test');
const skip = 'skip' in started ? started.skip : null;
const pm = () => started as Podman;

let port = 0;
const url = (p: string) => `http://127.0.0.1:${port}${p}`;
const post = (p: string, body: unknown) =>
  fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** `nodekeep <command>` in the running container, as its user (the image's USER). */
const nk = (args: string[]) => pm().cli(['exec', NAME, 'nodekeep', ...args]);

/** The run command of the docs, with the test's port and environment file. */
const runContainer = (envFile: string) =>
  pm().cli([
    'run',
    '-d',
    '--name',
    NAME,
    '--stop-timeout',
    '45',
    '-p',
    `127.0.0.1:${port}:8080`,
    '-v',
    `${VOLUME}:/var/lib/nodekeep/data`,
    '--env-file',
    envFile,
    IMAGE,
  ]);
let envFile = '';

/**
 * The container's health as its HEALTHCHECK finds it: a check is run now (the private
 * Podman has no systemd timer to run them), then the state the engine recorded.
 */
async function healthy(): Promise<boolean> {
  await pm()
    .cli(['healthcheck', 'run', NAME])
    .catch(() => {}); // unhealthy (or still starting) exits 1: the state says which
  const state = JSON.parse(await pm().cli(['inspect', '--format', '{{json .State}}', NAME])) as {
    Health?: { Status: string };
    Healthcheck?: { Status: string };
  };
  return (state.Health ?? state.Healthcheck)?.Status === 'healthy';
}

/**
 * Healthy inside, and answering on the published port: Podman sets up the port's
 * forwarding as the container starts, and while other tests' containers and networks
 * come and go beside it, a loaded run saw "healthy" a moment before 127.0.0.1 reached
 * the container (EHOSTUNREACH).
 */
async function healthyAndServing(): Promise<boolean> {
  if (!(await healthy())) return false;
  return fetch(url('/healthz')).then(
    (res) => res.ok,
    () => false,
  );
}

beforeAll(async () => {
  if (skip) return;
  expect(fs.existsSync('dist/client/index.html'), 'the client is built (npm run test:peers builds it first)').toBe(
    true,
  );
  port = await freePort();
  await pm().buildImage(BASE_IMAGE, ROOTFS);
  // The build folder of the docs: the Containerfile and the executable beside it.
  const context = fs.mkdtempSync(path.join(pm().dir, 'image-'));
  fs.copyFileSync('deploy/Containerfile', path.join(context, 'Containerfile'));
  fs.copyFileSync(builtExecutable(), path.join(context, EXECUTABLE_NAME));
  await pm().cli(['build', '--format', 'docker', '--build-arg', `BASE=${BASE_IMAGE}`, '-t', IMAGE, context]);
  fs.rmSync(context, { recursive: true, force: true });
  await pm().cli(['volume', 'create', VOLUME]);
  // The container's environment file, as the docs write it: values unquoted (Podman reads
  // them literally), no DATA_DIR, HOST or PORT (the image sets them).
  envFile = path.join(pm().dir, 'nodekeep-container.env');
  fs.writeFileSync(
    envFile,
    [
      `PUBLIC_URL=http://127.0.0.1:${port}`,
      'MAIL_FROM=Nodekeep <noreply@example.com>',
      'FLEET_SIMULATOR=true',
      'HOST_DISK_MIN_FREE_GB=0.1',
      '',
    ].join('\n'),
  );
  await runContainer(envFile);
}, 300_000);

afterAll(async () => {
  if (skip) return;
  await pm().stop();
});

describe.skipIf(!!skip)('the container image of deploy/Containerfile, as docs/self-hosting.md runs it', () => {
  it('turns healthy, serves, runs as its own user, keeps its data through a restart, a new container and a restore', async () => {
    onTestFailed(async () =>
      console.error(
        await pm()
          .cli(['logs', '--tail', '40', NAME])
          .catch((e: Error) => e.message),
      ),
    );
    // What the image promises before it runs: its user, the data volume, the port, the check.
    const config = JSON.parse(await pm().cli(['image', 'inspect', '--format', '{{json .Config}}', IMAGE])) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      User: 'nodekeep',
      Volumes: { '/var/lib/nodekeep/data': {} },
      ExposedPorts: { '8080/tcp': {} },
      StopSignal: 'SIGINT',
    });
    expect(await pm().cli(['image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE])).toContain(
      '"nodekeep","healthcheck"',
    );

    await waitFor(healthyAndServing, 90_000, 'the container to turn healthy');
    // What the operator sees when asking, as the docs say: exit 0, and nothing printed.
    expect(await pm().cli(['healthcheck', 'run', NAME])).toBe('');
    expect((await fetch(url('/readyz'))).status).toBe(200);
    expect(await nk(['healthcheck'])).toBe('http://127.0.0.1:8080/readyz answers: ready\n');

    // Every process in it runs as the image's user, none as root.
    const uid = (await pm().cli(['exec', NAME, 'id', '-u'])).trim();
    expect(uid).toBe('10001');
    const uids = await pm().cli([
      'exec',
      NAME,
      'sh',
      '-c',
      "for p in /proc/[0-9]*; do awk '/^Uid:/ {print $2}' $p/status 2>/dev/null; done",
    ]);
    expect(new Set(uids.trim().split('\n'))).toEqual(new Set(['10001']));
    const serverUser = (await pm().cli(['top', NAME, 'user', 'args'])).split('\n').find((l) => l.includes('serve'));
    expect(serverUser).toMatch(/^nodekeep\s+\/usr\/local\/bin\/nodekeep serve/);

    // A customer registers and logs in; the operator credits them with the command line in the container.
    const user = newUserInput();
    expect((await post('/public_api/register', user)).status).toBe(200);
    const login = async () => {
      const res = await post('/public_api/login', { username: user.username, password: user.password });
      expect(res.status).toBe(200);
      return ((await res.json()) as { auth_token: string }).auth_token;
    };
    expect(await nk(['billing', 'adjust', user.username, '+20', '--reason', 'welcome'])).toMatch(/credited \$20\.00/);
    const balance = async () => {
      const res = await fetch(url('/api/get_balance'), { headers: { authorization: `Bearer ${await login()}` } });
      return ((await res.json()) as { balance: number }).balance;
    };
    const before = await balance();
    expect(before).toBeGreaterThan(0);

    // A restart: SIGINT, the server stops (its daemons with it), the data is kept.
    await pm().cli(['restart', NAME]);
    expect(await pm().cli(['logs', NAME])).toMatch(/"msg":"shutting down".*"signal":"SIGINT".*"daemons":"stop"/);
    await waitFor(healthyAndServing, 90_000, 'the restarted container to turn healthy');
    expect(await balance()).toBe(before);

    // An upgrade as the docs say: a new container from the image on the same volume.
    await pm().cli(['stop', NAME]);
    expect((await pm().cli(['inspect', '--format', '{{.State.ExitCode}}', NAME])).trim()).toBe('0');
    await pm().cli(['rm', NAME]);
    await runContainer(envFile);
    await waitFor(healthyAndServing, 90_000, 'the new container to turn healthy');
    expect(await balance()).toBe(before);
    expect(await nk(['users', 'show', user.username])).toContain(`username:  ${user.username}`);

    // A backup while it runs, a restore with it stopped (in a one-off container on the volume).
    expect(await nk(['backup', '/var/lib/nodekeep/data/backups/nodekeep-now.tar.gz'])).toContain('nodekeep-now.tar.gz');
    const later = newUserInput();
    expect((await post('/public_api/register', later)).status).toBe(200);
    await pm().cli(['stop', NAME]);
    const restored = await pm().cli([
      'run',
      '--rm',
      '-v',
      `${VOLUME}:/var/lib/nodekeep/data`,
      '--env-file',
      envFile,
      IMAGE,
      'restore',
      '/var/lib/nodekeep/data/backups/nodekeep-now.tar.gz',
    ]);
    expect(restored).toMatch(/restored/i);
    await pm().cli(['start', NAME]);
    await waitFor(healthyAndServing, 90_000, 'the restored container to turn healthy');
    expect(await balance()).toBe(before);
    const users = await nk(['users', 'list']);
    expect(users).toContain(user.email);
    expect(users).not.toContain(later.email); // registered after the backup
  }, 300_000);
});
