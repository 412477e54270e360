import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { openSqlite } from './sqlite';

/**
 * The data folder holds password hashes, 2FA secrets and session hashes: only the
 * account that runs Nodekeep may read it. Creates it 0700, and tightens a folder we
 * own that others can read (never a shared sticky folder such as /tmp).
 */
export function secureDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  const ours = typeof process.getuid === 'function' && st.uid === process.getuid();
  if (ours && st.mode & 0o077 && !(st.mode & 0o1000)) fs.chmodSync(dir, 0o700);
}

/** Makes the file owner-only, creating it empty (0600) when missing. */
export function secureFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if (fs.statSync(file).mode & 0o077) fs.chmodSync(file, 0o600);
}

export class DataDirInUse extends Error {}

/**
 * An exclusive lock on the data folder for one server process. It is SQLite's own
 * file lock on `server.lock`, held by a transaction that stays open while the server
 * runs: the kernel drops it when the process ends however it ends, so a crash never
 * leaves a stale lock behind. The operator CLI does not take it and keeps working
 * beside the server (both use the database in WAL mode).
 */
export function lockDataDir(dir: string): { release(): void } {
  secureDataDir(dir);
  const file = path.join(dir, 'server.lock');
  const pidFile = path.join(dir, 'server.pid');
  secureFile(file);
  const lock = openSqlite(file, { timeout: 0 });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    let holder = '';
    try {
      holder = ` (pid ${Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10)})`;
    } catch {
      // No pid file: say so without one.
    }
    throw new DataDirInUse(
      `Another Nodekeep server${holder} is already running on the data folder ${dir}. Stop it first, or give this server its own DATA_DIR.`,
    );
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      fs.rmSync(pidFile, { force: true });
      lock.close();
    },
  };
}
