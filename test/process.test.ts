import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './support/server';
import { scaled, scaleFileTimeouts } from './support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// The production artifact: `npm test` builds it first (see package.json).
const BUNDLE = 'dist/server/main.js';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [BUNDLE], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

function killOnFail(child: ChildProcess) {
  return () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
}

describe('the server process', () => {
  it('starts on its defaults in a data folder, answers /healthz, and stops cleanly on SIGTERM', async () => {
    expect(fs.existsSync(BUNDLE)).toBe(true);
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const p = run({ DATA_DIR: dataDir, PORT: '0' });
    const cleanup = killOnFail(p.child);
    try {
      await expect
        .poll(() => /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())?.[1], { timeout: scaled(15_000) })
        .toBeTruthy();
      const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())![1];
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      // The built client is served, and deep links get the SPA.
      const page = await fetch(`${url}/dashboard/settings`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
      expect((await fetch(`${url}/missing.js`)).status).toBe(404);
      expect(fs.existsSync(`${dataDir}/nodekeep.sqlite`)).toBe(true);

      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.output()).toMatch(/"msg":"nodekeep stopped"/);
      // Every log line is JSON (after the banner).
      const lines = p
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      expect(lines.length).toBeGreaterThan(2);
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    } finally {
      cleanup();
    }
  });

  it('a second server on the same data folder refuses to start; a crashed one leaves no stale lock', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = run({ DATA_DIR: dataDir, PORT: '0' });
    const cleanup = killOnFail(first.child);
    try {
      await expect
        .poll(() => /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())?.[1], { timeout: scaled(15_000) })
        .toBeTruthy();
      const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())![1];
      const second = run({ DATA_DIR: dataDir, PORT: '0' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `Another Nodekeep server (pid ${first.child.pid}) is already running on the data folder ${dataDir}`,
      );
      expect(second.output()).not.toMatch(/running at/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      // The operator CLI works beside the running server.
      const cli = spawn(process.execPath, ['dist/server/cli.js', 'users', 'list'], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      });
      let out = '';
      cli.stdout.on('data', (d) => (out += d));
      expect(await new Promise((resolve) => cli.on('exit', resolve))).toBe(0);
      expect(out).toMatch(/no users yet/);
      // A crash frees the folder: the kernel drops the lock with the process.
      first.child.kill('SIGKILL');
      await first.exited;
      const third = run({ DATA_DIR: dataDir, PORT: '0' });
      const cleanupThird = killOnFail(third.child);
      try {
        await expect.poll(() => /running at/.test(third.output()), { timeout: scaled(15_000) }).toBe(true);
        third.child.kill('SIGTERM');
        expect(await third.exited).toBe(0);
      } finally {
        cleanupThird();
      }
    } finally {
      cleanup();
    }
  });

  it('refuses to start on an invalid variable, naming it', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const p = run({ PORT: 'eighty', DATA_DIR: dataDir });
    expect(await p.exited).toBe(2);
    expect(p.output()).toMatch(/PORT: must be a whole number/);
  });
});
