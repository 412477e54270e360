import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../support/server';

// The server's output closed early (`nodekeep serve | head -1`): Node raises EPIPE on
// the stream, which crashed the server with a stack trace at its next log line.

const dir = tempDataDir('nodekeep-pipes-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('output closed early', () => {
  it('leaves the server serving', async () => {
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: String(port),
      BACKUP_KEEP_DAYS: '0',
      LOG_LEVEL: 'debug',
    };
    const p = spawn(process.execPath, ['dist/server/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before its first line, as `head -1` closes after it: every log line from now on meets EPIPE.
    p.stdout.destroy();
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    try {
      const url = `http://127.0.0.1:${port}`;
      await expect
        .poll(
          () =>
            fetch(`${url}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 30_000 },
        )
        .toBe(200);
      for (let i = 0; i < 10; i++) expect((await fetch(`${url}/public_api/status`)).status).toBe(200);
      expect(p.exitCode).toBe(null);
      expect(err).not.toMatch(/EPIPE/);
    } finally {
      p.kill('SIGINT');
      if (p.exitCode === null) await new Promise((resolve) => p.on('close', resolve));
    }
  });
});
