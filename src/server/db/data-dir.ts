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

/** The data folder's lock is held: `who` holds it (a server, or a command at work), in a sentence. */
export class DataDirInUse extends Error {
  constructor(
    readonly who: string,
    readonly byServer: boolean,
    advice: string,
  ) {
    super(`${who} ${advice}`);
  }
}
/** Root about to write into a data folder that belongs to another user (the service's). */
export class DataDirOwner extends Error {}

/** A user's name from /etc/passwd, or null. */
function userName(uid: number): string | null {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[2] === String(uid));
    return line ? line.split(':')[0] : null;
  } catch {
    return null;
  }
}

/**
 * Refuses root on a data folder another user owns: what root writes there (a restored
 * database, a new WAL, the secrets key) would be root's, and the service, running as
 * its own user, could then not open it. The operator meant `runuser -u <owner> --`.
 * A folder whose database is root's already is root's to run.
 */
export function assertDataDirOwner(dir: string, dbFile: string): void {
  if (process.getuid?.() !== 0 || !fs.existsSync(dir)) return;
  const owner = fs.statSync(dir).uid;
  if (owner === 0) return;
  // A database of root's in it: root has been running Nodekeep there all along (a
  // container as root with a folder mounted from the host), and may go on.
  if (fs.existsSync(dbFile) && fs.statSync(dbFile).uid === 0) return;
  const name = userName(owner);
  throw new DataDirOwner(
    `The data folder ${dir} belongs to ${name ? `user ${name}` : `uid ${owner}`}, and this is root: files written now would be root's, and Nodekeep running as ${name ?? 'its owner'} could not open them. Run it as that user${name ? ` (runuser -u ${name} -- nodekeep …)` : ''}.`,
  );
}

/**
 * An exclusive lock on the data folder for one server process, or for a command that
 * must have the folder to itself (`holder` 'command': restore, fleet stop-local, an
 * upgrade). It is SQLite's own file lock on `server.lock`, held by a transaction that
 * stays open meanwhile: the kernel drops it when the process ends however it ends, so a
 * crash never leaves a stale lock behind. Other operator commands do not take it and
 * keep working beside the server (both use the database in WAL mode).
 */
export function lockDataDir(dir: string, holder: 'server' | 'command' = 'server'): { release(): void } {
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
    // "<pid>\n<server|command>\n"; a file of an earlier build holds the pid alone (a server's).
    let pid = '';
    let byServer = true;
    try {
      const [p, what] = fs.readFileSync(pidFile, 'utf8').split('\n');
      pid = ` (pid ${Number.parseInt(p, 10)})`;
      byServer = what !== 'command';
    } catch {
      // No pid file: say so without one.
    }
    if (byServer)
      throw new DataDirInUse(
        `Another Nodekeep server${pid} is already running on the data folder ${dir}.`,
        true,
        'Stop it first, or give this server its own DATA_DIR.',
      );
    throw new DataDirInUse(
      `A Nodekeep command${pid} is at work on the data folder ${dir} (an upgrade, a restore or fleet stop-local).`,
      false,
      'Wait for it to finish, then try again.',
    );
  }
  fs.writeFileSync(pidFile, `${process.pid}\n${holder}\n`, { mode: 0o600 });
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
