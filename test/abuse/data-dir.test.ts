import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { startTestServer, stopTestServer, tempDataDir } from '../support/server';

// Findings 9 and 10 (files): one server per data folder, and the folder is private.
const roots: string[] = [];
afterAll(() => roots.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('the data folder', () => {
  it('is created 0700 and its database files are 0600', async () => {
    const root = tempDataDir();
    roots.push(root);
    const dataDir = path.join(root, 'fresh', 'data');
    const s = await startTestServer({}, { dataDir });
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const f of ['nodekeep.sqlite', 'nodekeep.sqlite-wal', 'nodekeep.sqlite-shm'])
        expect(mode(path.join(dataDir, f))).toBe(0o600);
    } finally {
      await stopTestServer(s, { keepData: true });
    }
  });

  it('an existing folder and database readable by others are tightened at start', async () => {
    const dataDir = tempDataDir();
    roots.push(dataDir);
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'nodekeep.sqlite'), '', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'nodekeep.sqlite'), 0o644);
    const s = await startTestServer({}, { dataDir });
    await stopTestServer(s, { keepData: true });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'nodekeep.sqlite'))).toBe(0o600);
  });

  it('is held by one server: a second is refused with a clear message, the CLI keeps working', async () => {
    const dataDir = tempDataDir();
    roots.push(dataDir);
    const first = await startTestServer({}, { dataDir });
    try {
      await expect(startTestServer({}, { dataDir })).rejects.toThrow(
        `Another Nodekeep server (pid ${process.pid}) is already running on the data folder ${dataDir}`,
      );
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      const lines: string[] = [];
      expect(await runCli(['maintenance'], { DATA_DIR: dataDir }, { out: (l) => lines.push(l) })).toBe(0);
      expect(lines).toEqual(['maintenance is off']);
    } finally {
      await stopTestServer(first, { keepData: true });
    }
    // Stopped: the folder is free again.
    const again = await startTestServer({}, { dataDir });
    await stopTestServer(again, { keepData: true });
  });
});
