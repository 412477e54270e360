import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidsMatching } from '../support/daemons';
import { tempDataDir } from '../support/server';
import { newUserInput } from '../support/users';
import { builtExecutable } from '../support/executable';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// The single executable as an operator gets it: `npm run package` builds it, and it is
// copied alone into an empty folder and run there with no `node` on PATH and no
// node_modules above it. It serves the platform, runs the operator's commands on the
// same data folder, and starts the simulated daemons as itself. Then the file is
// replaced with a newer build, which finds everything.

const NAME = `nodekeep-${process.platform}-${process.arch}`;
const dir = tempDataDir('nodekeep-exe-');
const exe = path.join(dir, NAME);
/** A PATH with nothing on it: no node, no npm, no tools. */
const emptyBin = path.join(dir, 'bin');
const env = { PATH: emptyBin, HOME: dir, LANG: 'C' };
/** The newer build the operator replaces the file with. */
const newer = path.join(tempDataDir('nodekeep-exe-newer-'), NAME);

type Run = { code: number | null; out: string; err: string };
function run(args: string[], extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn(exe, args, { cwd: dir, env: { ...env, ...extra } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

function serve(args: string[]) {
  const child = spawn(exe, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out, url: () => /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] };
}

let simulator = 0;

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(() => {
  expect(fs.existsSync('dist/client/index.html'), 'the client is built (npm test builds it first)').toBe(true);
  // The operator's first file is an earlier release; the checkout's own build is the newer
  // one. Both come from the run's cache of builds (test/support/executable.ts).
  fs.copyFileSync(builtExecutable('0.0.9-earlier'), exe);
  fs.chmodSync(exe, 0o755);
  const current = builtExecutable();
  fs.copyFileSync(current, newer);
  fs.chmodSync(newer, 0o755);
  // dist/ holds the checkout's build beside its checksum, as `npm run package` leaves it.
  fs.copyFileSync(current, `dist/${NAME}`);
  fs.copyFileSync(`${current}.sha256`, `dist/${NAME}.sha256`);
  fs.mkdirSync(emptyBin);
}, scaled(300_000));

afterAll(() => {
  // What outlives the server by design (SIGTERM leaves the daemons running) ends here.
  for (const pid of pidsMatching(dir)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(path.dirname(newer), { recursive: true, force: true });
});

describe('the single executable', () => {
  it('is alone: no node on its PATH, no node_modules above its folder', () => {
    expect(fs.readdirSync(dir).sort()).toEqual(['bin', NAME]);
    expect(fs.readdirSync(emptyBin)).toEqual([]);
    for (let d = dir; ; d = path.dirname(d)) {
      expect(fs.existsSync(path.join(d, 'node_modules')), `${d}/node_modules`).toBe(false);
      if (d === path.dirname(d)) break;
    }
  });

  it('comes with the checksum the docs check before installing it', () => {
    // The newer build is the one in dist/ now, beside its .sha256 file.
    expect(fs.readFileSync(`dist/${NAME}.sha256`, 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${NAME}\\n$`));
    expect(execFileSync('sha256sum', ['-c', `${NAME}.sha256`], { cwd: 'dist', encoding: 'utf8' })).toBe(
      `${NAME}: OK\n`,
    );
    expect(fs.readFileSync(newer).equals(fs.readFileSync(`dist/${NAME}`))).toBe(true);
  });

  it('answers --version and help without touching a data folder', async () => {
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^nodekeep 0\.0\.9-earlier \(build [0-9a-f]{16}, node 20\.\d+\.\d+, linux-x64\)\n$/);
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/nodekeep serve/);
    expect(help.out).toMatch(/--env-file <file>/);
    // Every operator command, named as the executable runs it.
    expect(help.out).toMatch(/usage: nodekeep <command>/);
    for (const c of ['users list', 'billing adjust', 'fleet create', 'backup [file]', 'restore <file>'])
      expect(help.out).toContain(c);
    expect(help.out).not.toMatch(/npm run/);
    // The file comes alone: its help names no README or docs the operator does not have.
    expect(help.out).not.toMatch(/README|docs\//);
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown command: frobnicate/);
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
  });

  it('refuses a missing --env-file and a bad variable, saying which', async () => {
    // Node 20 itself reads --env-file before the program starts, even in an executable
    // (src/server/runtime/README.md): a missing file stops it there, with Node's exit code 9.
    const missing = await run(['--env-file', 'nope.env']);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toMatch(/nope\.env: not found|--env-file nope\.env: no such file/);
    fs.writeFileSync(path.join(dir, 'bad.env'), 'PORT=eighty\n');
    const bad = await run(['--env-file=bad.env', 'serve']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/PORT: must be a whole number/);
    expect(bad.err).toContain('the service reads them from /etc/nodekeep/nodekeep.env');
    expect(bad.err).not.toMatch(/README|docs\//);
  });

  it(
    'serves the platform from an empty folder; its commands work beside it and after it stops; a newer build finds everything',
    async () => {
      fs.writeFileSync(
        path.join(dir, 'nodekeep.env'),
        'PORT=0\nDATA_DIR=data\nFLEET_SIMULATOR=true\nMONITOR_NODE_SECONDS=1\n',
      );
      const cli = (...args: string[]) => run(['--env-file', 'nodekeep.env', ...args]);
      const user = newUserInput('exe');
      const s = serve(['--env-file', 'nodekeep.env']);
      try {
        await expect.poll(s.url, { timeout: scaled(30_000) }).toBeTruthy();
        const url = s.url()!;
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect((await fetch(`${url}/readyz`)).status).toBe(200);
        // The client, the coin logos and the catalog came out of the executable.
        const page = await fetch(`${url}/pricing`);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toMatch(/<div id="root">/);
        const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1];
        expect((await fetch(`${url}${script}`)).status).toBe(200);
        const logo = await fetch(`${url}/logos/dash.svg`);
        expect(logo.status).toBe(200);
        expect(await logo.text()).toMatch(/<svg/);
        const coins = (await (await fetch(`${url}/public_api/get_coins`)).json()) as { order?: string[] };
        expect(coins.order?.length).toBeGreaterThan(10);

        // A customer registers and logs in (argon2 from the executable's own addon).
        expect((await post(`${url}/public_api/register`, user)).status).toBe(200);
        const login = (await (
          await post(`${url}/public_api/login`, { username: user.username, password: user.password })
        ).json()) as { auth_token?: string };
        expect(login.auth_token).toMatch(/\S{20,}/);

        // The operator's commands on the same folder while the server runs.
        expect((await cli('billing', 'adjust', user.username, '+20', '--reason', 'welcome')).out).toMatch(
          /credited \$20\.00/,
        );
        const created = await cli('fleet', 'create', 'dash', '--user', user.username, '--plan', 'dedicated');
        expect(created.code, created.err).toBe(0);
        const node = /node (dash-[0-9a-f]+) requested/.exec(created.out)![1];
        // The server starts the node's simulated daemon: the executable itself, as its simulator.
        await expect
          .poll(async () => (await cli('fleet', 'nodes')).out, { timeout: scaled(30_000) })
          .toMatch(new RegExp(`${node}\\s.*\\s(syncing|running)\\s`));
        const sims = pidsMatching('__simulator').filter((pid) =>
          fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir),
        );
        expect(sims).toHaveLength(1);
        expect(fs.readlinkSync(`/proc/${sims[0]}/exe`)).toBe(exe);

        simulator = sims[0];

        s.child.kill('SIGTERM');
        expect(await s.exited).toBe(0);
        // A stop for a restart: the daemons run on.
        expect(pidsMatching('__simulator')).toContain(simulator);
      } finally {
        if (s.child.exitCode === null) s.child.kill('SIGKILL');
      }

      const cacheOf = () => fs.readdirSync(path.join(dir, 'data', '.cache'));
      const earlier = cacheOf();
      expect(earlier).toHaveLength(1);
      // The operator replaces the file with the newer build (as `install` does: a new file).
      fs.rmSync(exe);
      fs.copyFileSync(newer, exe);
      fs.chmodSync(exe, 0o755);
      expect((await run(['--version'])).out).not.toMatch(/0\.0\.9-earlier/);

      // After the stop: the same data, through the newer executable's commands.
      const users = await cli('users', 'list');
      expect(users.code, users.err).toBe(0);
      expect(users.out).toContain(user.email);
      const backup = await cli('backup', 'copy.tar.gz');
      expect(backup.code, backup.err).toBe(0);
      expect(fs.statSync(path.join(dir, 'copy.tar.gz')).size).toBeGreaterThan(10_000);
      // Each build unpacks its own files, owner-only, with its native addons.
      const builds = cacheOf();
      expect(builds).toHaveLength(2);
      const current = builds.find((b) => !earlier.includes(b))!;
      const unpacked = path.join(dir, 'data', '.cache', current);
      expect(fs.readdirSync(path.join(unpacked, 'native')).sort()).toEqual(['argon2.node', 'better_sqlite3.node']);
      expect(fs.statSync(unpacked).mode & 0o077).toBe(0);

      // The newer server on the folder finds the customer and the node, and clears the earlier build's files.
      const again = serve(['--env-file', 'nodekeep.env']);
      try {
        await expect.poll(again.url, { timeout: scaled(30_000) }).toBeTruthy();
        expect(cacheOf()).toEqual([current]);
        // The earlier build's simulator, still running, is adopted rather than started again.
        await expect
          .poll(again.output, { timeout: scaled(10_000) })
          .toMatch(new RegExp(`"msg":"local engine adopted running daemon".*"pid":${simulator}\\b`));
        const login = await post(`${again.url()}/public_api/login`, {
          username: user.username,
          password: user.password,
        });
        expect(login.status).toBe(200);
        const nodes = await cli('fleet', 'nodes');
        expect(nodes.out).toMatch(/dash-[0-9a-f]+\s.*\s(syncing|running)\s/);
        again.child.kill('SIGTERM');
        expect(await again.exited).toBe(0);
      } finally {
        if (again.child.exitCode === null) again.child.kill('SIGKILL');
      }
    },
    scaled(120_000),
  );
});
