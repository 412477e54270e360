import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pidsMatching } from '../support/daemons';
import { tempDataDir } from '../support/server';
import { newUserInput } from '../support/users';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// A service manager's restart as the built server sees it: SIGTERM while a browser tab
// is live, a request is half-sent and a node's daemon runs. The request finishes, the
// tab is told to reconnect, the process is gone within 10 s, and the daemon runs on into
// the next start, which adopts it. Ctrl-C (SIGINT) stops the daemons too.

const BUNDLE = 'dist/server/main.js';
const dataDir = tempDataDir('nodekeep-sigterm-');
const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', FLEET_SIMULATOR: 'true' };
const simulatorsHere = () =>
  pidsMatching('simulator').filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

afterAll(() => {
  for (const pid of simulatorsHere()) process.kill(pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function start() {
  const child = spawn(process.execPath, [BUNDLE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = () => /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  return { child, exited, output: () => out, url };
}

function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['dist/server/cli.js', ...args], { env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** A login whose body arrives in two parts: the second after `gate` resolves. */
/**
 * A login whose headers and first bytes go out now and the rest once `gate` opens. Resolves
 * once the server has read the headers: a fresh connection made after them was answered (the
 * server accepts connections in order and reads what arrived before answering a later one).
 */
async function slowLogin(url: string, body: string, gate: Promise<void>) {
  const { port } = new URL(url);
  let flushed!: () => void;
  const sent = new Promise<void>((r) => (flushed = r));
  const answer = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/public_api/login',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10), () => flushed());
    void gate.then(() => req.end(body.slice(10)));
  });
  await sent;
  await new Promise<void>((resolve, reject) =>
    http.get(`${url}/healthz`, { agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject),
  );
  return { answer };
}

describe('SIGTERM', () => {
  it(
    'drains requests, tells live tabs to reconnect, exits within 10 s and leaves the daemons to the next start',
    async () => {
      expect(fs.existsSync(BUNDLE), 'the server is built (npm test builds it first)').toBe(true);
      const user = newUserInput();
      const first = start();
      let second: ReturnType<typeof start> | undefined;
      let third: ReturnType<typeof start> | undefined;
      let fourth: ReturnType<typeof start> | undefined;
      try {
        await expect.poll(first.url, { timeout: scaled(20_000) }).toBeTruthy();
        const url = first.url()!;
        const reg = await fetch(`${url}/public_api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(user),
        });
        expect(reg.status).toBe(200);
        expect((await cli('billing', 'adjust', user.username, '+20', '--reason', 'welcome')).code).toBe(0);
        const created = await cli('fleet', 'create', 'dash', '--user', user.username, '--plan', 'dedicated');
        expect(created.code, created.err).toBe(0);
        const node = /node (dash-[0-9a-f]+) requested/.exec(created.out)![1];
        await expect
          .poll(async () => (await cli('fleet', 'nodes')).out, { timeout: scaled(30_000) })
          .toMatch(new RegExp(`${node}\\s.*\\s(syncing|running)\\s`));
        const [sim] = simulatorsHere();
        expect(sim).toBeGreaterThan(0);

        // A live tab, an idle keep-alive connection, and a request half-sent.
        const ws = new WebSocket(`${url.replace('http', 'ws')}/live`);
        const messages: string[] = [];
        ws.on('message', (m) => messages.push(String(m)));
        const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        const agent = new http.Agent({ keepAlive: true });
        await new Promise<void>((resolve) =>
          http.get(`${url}/healthz`, { agent }, (res) => res.resume().on('end', resolve)),
        );
        let sendRest!: () => void;
        const inFlight = (
          await slowLogin(
            url,
            JSON.stringify({ username: user.username, password: user.password }),
            new Promise((r) => (sendRest = r)),
          )
        ).answer;

        const t0 = Date.now();
        first.child.kill('SIGTERM');
        // Taking no new connections at once.
        // A new connection each time (no pooled keep-alive one, whose reset would also fail).
        const connect = () =>
          new Promise<string>((resolve) => {
            http
              .get(`${url}/healthz`, { agent: false }, (res) => resolve(`open ${res.resume().statusCode}`))
              .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
          });
        await expect.poll(connect).toBe('ECONNREFUSED');
        // The tab got the notice, then a 1012 (service restart) close.
        expect(await closed).toBe(1012);
        expect(messages.some((m) => JSON.parse(m).method === 'reconnect')).toBe(true);
        // The request under way still gets its whole answer: the login succeeds.
        sendRest();
        const answer = await inFlight;
        expect(answer.status, answer.text).toBe(200);
        expect(JSON.parse(answer.text).auth_token).toMatch(/\S{20,}/);
        expect(await first.exited).toBe(0);
        expect(Date.now() - t0).toBeLessThan(10_000);
        agent.destroy();
        expect(first.output()).toMatch(/"msg":"local engine leaves its daemons running"/);
        expect(first.output()).toMatch(/"msg":"nodekeep stopped".*"daemons":"left running"/);

        // The daemon ran on, and the next start adopts it instead of starting another.
        expect(alive(sim)).toBe(true);
        second = start();
        await expect.poll(second.url, { timeout: scaled(20_000) }).toBeTruthy();
        await expect
          .poll(() => second!.output(), { timeout: scaled(10_000) })
          .toMatch(new RegExp(`"msg":"local engine adopted running daemon".*"pid":${sim}\\b`));
        expect(simulatorsHere()).toEqual([sim]);
        await expect
          .poll(async () => (await cli('fleet', 'nodes')).out, { timeout: scaled(15_000) })
          .toMatch(new RegExp(`${node}\\s.*\\s(syncing|running)\\s`));

        // Ctrl-C in a terminal: the daemons stop with the server. Under `npm start` the
        // server gets it twice (the terminal's and npm's forward): still one clean stop.
        second.child.kill('SIGINT');
        second.child.kill('SIGINT');
        expect(await second.exited).toBe(0);
        expect(second.output()).toMatch(/"msg":"nodekeep stopped".*"daemons":"stopped"/);
        expect(alive(sim)).toBe(false);

        // Under systemd the operator stops the daemons a stop left with `fleet stop-local`:
        // refused while a server runs (it would start them again), then they are gone.
        third = start();
        await expect.poll(third.url, { timeout: scaled(20_000) }).toBeTruthy();
        await expect.poll(() => simulatorsHere().length, { timeout: scaled(20_000) }).toBe(1);
        const [sim3] = simulatorsHere();
        expect(sim3).not.toBe(sim);
        const refused = await cli('fleet', 'stop-local');
        expect(refused.code).toBe(1);
        expect(refused.err).toMatch(
          /Another Nodekeep server \(pid \d+\) is already running on the data folder .* Stop it first \(systemctl stop nodekeep\)/,
        );
        expect(alive(sim3)).toBe(true);
        third.child.kill('SIGTERM');
        expect(await third.exited).toBe(0);
        expect(alive(sim3)).toBe(true);
        const stopLocal = await cli('fleet', 'stop-local');
        expect(stopLocal.code, stopLocal.err).toBe(0);
        expect(stopLocal.out).toMatch(/stopped 1 daemon: _simulator/);
        expect(alive(sim3)).toBe(false);
        expect((await cli('fleet', 'stop-local')).out).toMatch(/no daemons were running/);

        // `systemctl kill`: the server and its daemons get SIGTERM together. Nothing is
        // restarted behind the operator's back while the server drains.
        fourth = start();
        await expect.poll(fourth.url, { timeout: scaled(20_000) }).toBeTruthy();
        await expect.poll(() => simulatorsHere().length, { timeout: scaled(20_000) }).toBe(1);
        const [sim4] = simulatorsHere();
        expect(sim4).not.toBe(sim3);
        // A request under way keeps the server draining past the engine's restart backoff.
        let finish!: () => void;
        const slow = (
          await slowLogin(
            fourth.url()!,
            JSON.stringify({ username: user.username, password: user.password }),
            new Promise((r) => (finish = r)),
          )
        ).answer;
        process.kill(fourth.child.pid!, 'SIGTERM');
        process.kill(sim4, 'SIGTERM');
        // The witness: the server saw the daemon's exit (while the request still holds it
        // draining) and said what it did about it; a restart would be said in that same step.
        await expect
          .poll(() => /daemon exited (while the server stops|unexpectedly)/.test(fourth!.output()), {
            timeout: scaled(20_000),
          })
          .toBe(true);
        finish();
        expect((await slow).status).toBe(200);
        expect(await fourth.exited).toBe(0);
        expect(fourth.output()).not.toMatch(/daemon exited unexpectedly; restarting/);
        expect(simulatorsHere()).toEqual([]);
      } finally {
        for (const p of [first, second, third, fourth]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      }
    },
    scaled(120_000),
  );
});
