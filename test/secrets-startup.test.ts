import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { scaled, scaleFileTimeouts } from './support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

let server: TestServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await stopTestServer(server);
  server = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the secrets key at server start', () => {
  it('creates secrets.key (0600) on first start and keeps it on the next', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    server = await startTestServer({}, { dataDir });
    const file = path.join(dataDir, 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(file, 'utf8');
    expect(server.logLines.some((l) => l.includes('"secrets key"') && l.includes('"source":"file"'))).toBe(true);
    expect(server.logLines.join('\n')).not.toContain(key.trim());
    await stopTestServer(server, { keepData: true });
    server = await startTestServer({}, { dataDir });
    expect(fs.readFileSync(file, 'utf8')).toBe(key);
  });

  it('refuses to start with a key file others can read, and with a malformed one', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const file = path.join(dataDir, 'secrets.key');
    fs.writeFileSync(file, `${'c3'.repeat(32)}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await expect(startTestServer({}, { dataDir })).rejects.toThrow(
      /readable or writable by other users \(mode 644\).*chmod 600/,
    );
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, 'not a key\n');
    await expect(startTestServer({}, { dataDir })).rejects.toThrow(/secrets\.key is malformed/);
    // Nothing was started on the way: no database, and the data folder is free again.
    expect(fs.existsSync(path.join(dataDir, 'nodekeep.sqlite'))).toBe(false);
    fs.writeFileSync(file, `${'c3'.repeat(32)}\n`);
    server = await startTestServer({}, { dataDir });
    expect(server.logLines.some((l) => l.includes('"source":"file"'))).toBe(true);
  });

  it('uses SECRETS_KEY when set and writes no key file', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    server = await startTestServer({ SECRETS_KEY: 'd4'.repeat(32) }, { dataDir });
    expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
    expect(server.logLines.some((l) => l.includes('"source":"env"'))).toBe(true);
  });
});

describe('the secrets key when the process starts (src/server/main.ts)', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });

  it('refuses a malformed SECRETS_KEY before anything starts, without printing it', () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const bad = 'e5'.repeat(31);
    const r = start({ DATA_DIR: dataDir, SECRETS_KEY: bad });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('SECRETS_KEY: must be 64 hex characters or the base64 of 32 bytes');
    expect(r.stderr).not.toContain(bad);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a key file others can read', () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const file = path.join(dataDir, 'secrets.key');
    fs.writeFileSync(file, `${'f6'.repeat(32)}\n`);
    fs.chmodSync(file, 0o644);
    const r = start({ DATA_DIR: dataDir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Nodekeep failed to start: ${file} is readable or writable by other users (mode 644)`);
    expect(r.stderr).not.toContain('f6f6');
  });
});
