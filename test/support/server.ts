import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/server/kernel/config';
import { memoryLogger } from '../../src/server/kernel/log';
import { startServer, type RunningServer } from '../../src/server/server';

export type TestServer = RunningServer & { dataDir: string; logLines: string[]; config: Config };

/** A fresh data folder (real SQLite file) per call; removed by `stop`. */
export function tempDataDir(prefix = 'nodekeep-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Starts the real platform on 127.0.0.1 and a kernel-chosen port. `env` is the same
 * environment table the README documents (SMTP_URL, ...).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: { dataDir?: string; port?: number } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  // The simulator is on unless a test turns it off: most fleet tests deploy simulated nodes.
  // HOST_DISK_MIN_FREE_GB low: placement must not depend on how full the test machine's disk is.
  // BACKUP_KEEP_DAYS 0: no backup at every test server's start (test/ops/backup.test.ts turns it on).
  const config = loadConfig(
    {
      HOST: '127.0.0.1',
      PORT: String(opts.port ?? 0),
      DATA_DIR: dataDir,
      FLEET_SIMULATOR: 'true',
      HOST_DISK_MIN_FREE_GB: '0.1',
      BACKUP_KEEP_DAYS: '0',
      ...env,
    },
    { clientDir: path.resolve('dist/client') },
  );
  const log = memoryLogger();
  const running = await startServer(config, log);
  // PUBLIC_URL defaults to HOST:PORT; with port 0 the real port is known only now.
  if (!env.PUBLIC_URL) config.publicUrl = running.url;
  return { ...running, dataDir, logLines: log.lines, config };
}

export async function stopTestServer(s: TestServer | undefined, opts: { keepData?: boolean } = {}) {
  if (!s) return;
  await s.close();
  if (!opts.keepData) fs.rmSync(s.dataDir, { recursive: true, force: true });
}
