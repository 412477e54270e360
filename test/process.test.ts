import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './support/server';

// The production artifact: `npm test` builds it first (see package.json).
const BUNDLE = 'dist/server/main.js';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [BUNDLE], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
      await expect.poll(() => /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())?.[1], { timeout: 15_000 }).toBeTruthy();
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
      const lines = p.output().split('\n').filter((l) => l.startsWith('{'));
      expect(lines.length).toBeGreaterThan(2);
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
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
