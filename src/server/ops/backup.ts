import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type SQLite from 'better-sqlite3';
import { openSqlite } from '../db/sqlite';
import * as v from 'valibot';
import type { AppDeps } from '../rpc/context';
import { lockDataDir, DataDirInUse, secureDataDir } from '../db/data-dir';
import { connectionOf } from '../db/open';
import type { JobRunner } from '../jobs/runner';
import { packTar, readTar } from '../kernel/tar';
import { KEY_FILE_NAME } from '../secrets/key';

/**
 * A backup is one gzipped tar: `manifest.json`, `nodekeep.sqlite` (a consistent copy made
 * with SQLite's online backup API while the server writes) and the data folder's
 * `secrets.key` when there is one (the sealed node secrets need it). docs/self-hosting.md.
 */
export const BACKUP_FORMAT = 'nodekeep-backup/1';
const DB_NAME = 'nodekeep.sqlite';

const Manifest = v.strictObject({
  format: v.literal(BACKUP_FORMAT),
  created_at: v.string(),
  migrations: v.array(v.string()),
  files: v.array(v.picklist([DB_NAME, KEY_FILE_NAME])),
  // Each file's SHA-256 (hex), checked before a restore replaces anything. Optional: backups
  // made before it was added carry none and still restore (gzip's CRC guards them).
  sha256: v.optional(v.record(v.picklist([DB_NAME, KEY_FILE_NAME]), v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)))),
});
type Manifest = v.InferOutput<typeof Manifest>;

export class BackupError extends Error {}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-');

/** A file's SHA-256 in hex, read as a stream (a database of any size). */
async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file name of a backup made at `ms` in `dir`. */
export const backupFileName = (dir: string, ms: number) => path.join(dir, `nodekeep-${stamp(ms)}.tar.gz`);

/** Pages copied per step by a backup from the server's own connection (4 MiB of 4 KiB pages, a few ms). */
const STEP_PAGES = 1024;

export type BackupOptions = {
  now?: number;
  /**
   * The server's own connection (`connectionOf`): the copy goes in small steps with the
   * event loop free between them, and the server's writes in between go into the copy as
   * they happen. Without it, a read-only connection of this process copies every page in
   * one step (a command-line process, where nothing else waits on its event loop, and a
   * server's writes would restart a copy made in steps).
   */
  source?: SQLite.Database;
  /** Stops the copy between two steps (the server is stopping); nothing is left behind. */
  signal?: AbortSignal;
};

/**
 * Copies the database online (the server may be writing) into `out`, with the secrets
 * key. Written to `out.part`, flushed to disk and renamed, so a crash or a power cut
 * never leaves half a backup under the final name; a failed one leaves nothing. Returns
 * its size and whether the key file was in it (none when SECRETS_KEY is set).
 */
export async function writeBackup(
  dataDir: string,
  dbFile: string,
  out: string,
  opts: BackupOptions = {},
): Promise<{ file: string; bytes: number; withKey: boolean }> {
  const { now = Date.now(), source, signal } = opts;
  if (!fs.existsSync(dbFile)) throw new BackupError(`There is no database at ${dbFile} to back up.`);
  const work = fs.mkdtempSync(path.join(dataDir, WORK_PREFIX.backup));
  const part = `${out}.part`;
  try {
    const copy = path.join(work, DB_NAME);
    const stopped = () => {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('backup stopped');
      return STEP_PAGES;
    };
    if (source) {
      // A first step inside the connection's own write transaction copies nothing and
      // better-sqlite3 takes it for the end (0 pages left): then the copy is begun again.
      for (let tries = 0; (await source.backup(copy, { progress: stopped })).totalPages === 0; tries++) {
        fs.rmSync(copy, { force: true });
        if (tries === 50)
          throw new BackupError('The database stayed busy for 5 s; the backup is tried again at the next hour.');
        await new Promise((r) => setTimeout(r, 100));
      }
    } else {
      const src = openSqlite(dbFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
      try {
        await src.backup(copy, { progress: () => 1_000_000_000 });
      } finally {
        src.close();
      }
    }
    const db = openSqlite(copy, { fileMustExist: true });
    let migrations: string[];
    try {
      migrations = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
      // One file: the copy carries no WAL of its own.
      db.pragma('journal_mode = DELETE');
    } finally {
      db.close();
    }
    const key = path.join(dataDir, KEY_FILE_NAME);
    const files: Array<{ name: string; file: string; mode: number }> = [{ name: DB_NAME, file: copy, mode: 0o600 }];
    if (fs.existsSync(key)) files.push({ name: KEY_FILE_NAME, file: key, mode: 0o600 });
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      created_at: new Date(now).toISOString(),
      migrations,
      files: files.map((f) => f.name as Manifest['files'][number]),
      sha256: Object.fromEntries(await Promise.all(files.map(async (f) => [f.name, await sha256Of(f.file)]))),
    };
    fs.mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
    await pipeline(
      packTar([
        { name: 'manifest.json', content: Buffer.from(JSON.stringify(manifest, null, 1)), mode: 0o600 },
        ...files,
      ]),
      zlib.createGzip(),
      fs.createWriteStream(part, { mode: 0o600 }),
      ...(signal ? [{ signal }] : []),
    );
    fsyncPath(part);
    fs.renameSync(part, out);
    fsyncPath(path.dirname(out));
    return { file: out, bytes: fs.statSync(out).size, withKey: files.length > 1 };
  } catch (err) {
    fs.rmSync(part, { force: true });
    throw err;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Flushes a file, or a folder's entries (a rename), to the disk. */
function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The work folders backups and restores make in the data folder (a plaintext database copy while they run). */
const WORK_PREFIX = { backup: '.backup-', restore: '.restore-' } as const;
/** Older than this, a work folder or `.part` file belongs to no run: nothing takes a day. */
const LEFTOVER_MS = 86_400_000;

/**
 * Removes what a backup or restore cut off (the process killed) left behind: work folders
 * with a plaintext copy of the database, and `.part` files in the backup folder.
 */
export function sweepLeftovers(dataDir: string, backupDir: string, now = Date.now()): string[] {
  const gone: string[] = [];
  const sweep = (dir: string, test: (name: string) => boolean) => {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) {
      if (!test(name)) continue;
      const p = path.join(dir, name);
      if (now - fs.statSync(p).mtimeMs < LEFTOVER_MS) continue;
      fs.rmSync(p, { recursive: true, force: true });
      gone.push(p);
    }
  };
  sweep(dataDir, (n) => n.startsWith(WORK_PREFIX.backup) || n.startsWith(WORK_PREFIX.restore));
  sweep(backupDir, (n) => /^nodekeep-.*\.tar\.gz\.part$/.test(n));
  return gone;
}

/** A file system's refusal (a full disk) is not the archive's fault: say which it is. */
const cannotUnpack = (archive: string, dir: string, e: Error) =>
  new BackupError(`Cannot unpack ${archive} into ${dir}: ${e.message}. Nothing was replaced.`);

/** The files of a gzipped tar, unpacked into `dir` (plain names only); their names. */
async function unpack(archive: string, dir: string): Promise<string[]> {
  const tar = path.join(dir, '.archive.tar');
  try {
    await pipeline(fs.createReadStream(archive), zlib.createGunzip(), fs.createWriteStream(tar));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.syscall) throw cannotUnpack(archive, dir, e);
    throw new BackupError(
      `${archive} is damaged (cut short in a copy?) or not a Nodekeep backup (${e.message}). Nothing was replaced.`,
    );
  }
  const names: string[] = [];
  try {
    await readTar(fs.createReadStream(tar), async (entry, content) => {
      if (entry.type !== 'file' || !/^[\w.-]{1,64}$/.test(entry.name) || entry.name.startsWith('.'))
        throw new BackupError(`${archive} is not a Nodekeep backup (a damaged or foreign entry).`);
      await pipeline(content, fs.createWriteStream(path.join(dir, entry.name), { mode: 0o600 }));
      names.push(entry.name);
    });
  } catch (err) {
    if (err instanceof BackupError) throw err;
    if ((err as NodeJS.ErrnoException).syscall) throw cannotUnpack(archive, dir, err as Error);
    // tar-stream's refusal: a header that does not check out, or an entry cut short.
    throw new BackupError(`${archive} is not a Nodekeep backup (a damaged or foreign entry).`);
  } finally {
    fs.rmSync(tar, { force: true });
  }
  return names;
}

/** How many migrations the restored database has, where the files it replaced went, and whether it brought a key file. */
type Restored = { migrations: number; keptIn: string | null; withKey: boolean };

/**
 * Replaces the data folder's database (and secrets key) with a backup's, after checking
 * it: refused while a server holds the folder (its lock is taken for the whole restore,
 * so none can start meanwhile), for an archive that is not a whole Nodekeep backup, a
 * database that fails `PRAGMA integrity_check`, or one migrated by a newer Nodekeep
 * than this one (`known`: this build's migrations). Nothing is replaced until all of
 * that passed; what was there is kept in `before-restore-<time>/`.
 */
export async function restoreBackup(
  dataDir: string,
  dbFile: string,
  archive: string,
  known: string[],
  now = Date.now(),
): Promise<Restored> {
  try {
    fs.accessSync(archive, fs.constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupError(
      code === 'ENOENT'
        ? `No file ${archive}.`
        : `${archive} cannot be read by this user (${code}): put it where the user running Nodekeep can read it.`,
    );
  }
  secureDataDir(dataDir);
  let lock: { release(): void };
  try {
    lock = lockDataDir(dataDir, 'command');
  } catch (err) {
    if (err instanceof DataDirInUse)
      throw new BackupError(
        `${err.who} ${err.byServer ? 'Stop it before restoring (systemctl stop nodekeep): a restore replaces the database it is using.' : 'Wait for it to finish, then restore.'}`,
      );
    throw err;
  }
  try {
    return await restoreLocked(dataDir, dbFile, archive, known, now);
  } finally {
    lock.release();
  }
}

/** `restoreBackup`'s work, with the data folder's lock held. */
async function restoreLocked(
  dataDir: string,
  dbFile: string,
  archive: string,
  known: string[],
  now: number,
): Promise<Restored> {
  const work = fs.mkdtempSync(path.join(dataDir, WORK_PREFIX.restore));
  try {
    const names = await unpack(archive, work);
    let manifest: Manifest;
    try {
      manifest = v.parse(Manifest, JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')));
    } catch {
      throw new BackupError(`${archive} is not a Nodekeep backup (no valid manifest).`);
    }
    if (!names.includes(DB_NAME) || !manifest.files.every((f) => names.includes(f)))
      throw new BackupError(
        `${archive} is incomplete: it lacks ${manifest.files.filter((f) => !names.includes(f)).join(', ') || DB_NAME}.`,
      );
    for (const [name, sum] of Object.entries(manifest.sha256 ?? {}))
      if ((await sha256Of(path.join(work, name))) !== sum)
        throw new BackupError(
          `${archive} is damaged: ${name} does not match the checksum in its manifest (changed after the backup was made). Nothing was replaced.`,
        );
    const copy = path.join(work, DB_NAME);
    const db = openSqlite(copy, { fileMustExist: true });
    let applied: string[];
    try {
      const check = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
      if (check[0]?.integrity_check !== 'ok')
        throw new BackupError(
          `The database in ${archive} is damaged (integrity_check: ${check
            .map((c) => c.integrity_check)
            .slice(0, 3)
            .join('; ')}).`,
        );
      applied = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
    } catch (err) {
      if (err instanceof BackupError) throw err;
      throw new BackupError(`The database in ${archive} cannot be read: ${(err as Error).message}.`);
    } finally {
      db.close();
    }
    const newer = applied.filter((m) => !known.includes(m));
    if (newer.length)
      throw new BackupError(
        `${archive} was made by a newer Nodekeep (its database has migrations this build does not know: ${newer.join(', ')}). Restore it with that version or a newer one.`,
      );
    // All checked: the current files step aside, the backup's take their place.
    // A backup without a key file was made with SECRETS_KEY set: the folder's key file, if
    // any, stays (moving it aside would make the next start create a new one).
    const withKey = names.includes(KEY_FILE_NAME);
    const present = [
      dbFile,
      `${dbFile}-wal`,
      `${dbFile}-shm`,
      ...(withKey ? [path.join(dataDir, KEY_FILE_NAME)] : []),
    ].filter((f) => fs.existsSync(f));
    let keptIn: string | null = null;
    if (present.length) {
      keptIn = path.join(dataDir, `before-restore-${stamp(now)}`);
      fs.mkdirSync(keptIn, { mode: 0o700 });
      for (const f of present) fs.renameSync(f, path.join(keptIn, path.basename(f)));
    }
    fs.renameSync(copy, dbFile);
    if (withKey) fs.renameSync(path.join(work, KEY_FILE_NAME), path.join(dataDir, KEY_FILE_NAME));
    return { migrations: applied.length, keptIn, withKey };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Scheduled backups older than `keepDays` in `dir` (only files named as ours). */
export function pruneBackups(dir: string, keepDays: number, now = Date.now()): string[] {
  if (!fs.existsSync(dir)) return [];
  const gone: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!/^nodekeep-[\dTZ-]+\.tar\.gz$/.test(name)) continue;
    const file = path.join(dir, name);
    if (now - fs.statSync(file).mtimeMs > keepDays * 86_400_000) {
      fs.rmSync(file, { force: true });
      gone.push(name);
    }
  }
  return gone;
}

/** The newest scheduled backup's time in `dir`, or null. */
export function newestBackupAt(dir: string): number | null {
  if (!fs.existsSync(dir)) return null;
  let newest: number | null = null;
  for (const name of fs.readdirSync(dir)) {
    if (!/^nodekeep-[\dTZ-]+\.tar\.gz$/.test(name)) continue;
    const t = fs.statSync(path.join(dir, name)).mtimeMs;
    if (newest === null || t > newest) newest = t;
  }
  return newest;
}

/**
 * The job `backup.daily`: looks every hour, and writes a backup when the newest in
 * BACKUP_DIR is a day old (so a restart does not make another), then deletes those past
 * BACKUP_KEEP_DAYS. Off with BACKUP_KEEP_DAYS=0.
 */
export function scheduleBackups(
  jobs: JobRunner,
  deps: Pick<AppDeps, 'config' | 'log' | 'db'>,
  everyMs = 3_600_000,
): void {
  const { config, log } = deps;
  if (config.backupKeepDays === 0) return;
  jobs.every('backup.daily', {
    everyMs,
    atStart: true,
    deadlineMs: 2 * 3_600_000,
    run: async (signal) => {
      const left = sweepLeftovers(config.dataDir, config.backupDir);
      if (left.length) log.warn('leftovers of a cut-off backup or restore removed', { paths: left });
      const newest = newestBackupAt(config.backupDir);
      if (newest === null || Date.now() - newest >= 86_400_000 - 60_000) {
        const r = await writeBackup(config.dataDir, config.dbFile, backupFileName(config.backupDir, Date.now()), {
          source: connectionOf(deps.db),
          signal,
        });
        log.info('daily backup written', {
          file: r.file,
          bytes: r.bytes,
          secrets_key: r.withKey ? 'in the backup' : 'not in the backup (SECRETS_KEY is set: keep it apart)',
        });
      }
      const gone = pruneBackups(config.backupDir, config.backupKeepDays);
      if (gone.length) log.info('old backups deleted', { files: gone });
    },
  });
}
