import path from 'node:path';
import { sql, type Migration } from 'kysely';
import { migrations } from '../../../migrations/index';
import type { Config } from '../kernel/config';
import { createLogger, type Logger } from '../kernel/log';
import { DataDirInUse, lockDataDir } from './data-dir';
import { migrateToLatest, type DB } from './open';

/** The database was migrated by a newer build: this one must not run on it. */
export class DatabaseTooNew extends Error {}
/** Migrating failed; the data folder was put back as it was. */
export class UpgradeFailed extends Error {}
/** The command line would have to migrate a database a server is running on. */
export class UpgradeNeedsServer extends Error {}

/**
 * Writes the data folder's backup to `out` (ops/backup.ts `writeBackup`). Handed in by
 * the caller (server start, command line): db/ sits below ops/ and imports it not.
 */
export type BackupWriter = (dataDir: string, dbFile: string, out: string) => Promise<{ file: string }>;

async function appliedMigrations(db: DB): Promise<string[]> {
  const table = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  if (!Number(table.rows[0].n)) return [];
  return (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map(
    (r) => r.name,
  );
}

/** Refuses, with what to do, a database migrated by a newer Nodekeep than this one. */
export async function assertNotNewer(
  db: DB,
  dataDir: string,
  list: Record<string, Migration> = migrations,
): Promise<string[]> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((m) => !Object.hasOwn(list, m));
  if (unknown.length) {
    throw new DatabaseTooNew(
      `The data folder ${dataDir} was last used by a newer Nodekeep: its database has migrations this build does not know (${unknown.join(', ')}). Run that version or a newer one; this one would not understand the data, so it does not start.`,
    );
  }
  return applied;
}

/**
 * Brings the database to this build at start. A database from an earlier build is
 * backed up first (BACKUP_DIR, `nodekeep-before-upgrade-<time>.tar.gz`, kept whatever
 * BACKUP_KEEP_DAYS says); the migrations then run in one transaction, so a failure leaves
 * the database as it was, and the start stops saying so. A
 * database from a newer build is refused (`assertNotNewer`). A new one is simply made.
 */
export async function upgradeDatabase(
  db: DB,
  config: Pick<Config, 'dataDir' | 'dbFile' | 'backupDir'>,
  log: Logger,
  writeBackup: BackupWriter,
  list: Record<string, Migration> = migrations,
): Promise<{ applied: string[]; backup: string | null }> {
  const applied = await assertNotNewer(db, config.dataDir, list);
  const pending = Object.keys(list).filter((m) => !applied.includes(m));
  if (!pending.length) return { applied: [], backup: null };
  let backup: string | null = null;
  if (applied.length) {
    const when = new Date().toISOString().replace(/[:.]/g, '-');
    backup = (
      await writeBackup(
        config.dataDir,
        config.dbFile,
        path.join(config.backupDir, `nodekeep-before-upgrade-${when}.tar.gz`),
      )
    ).file;
    log.info('database backed up before the upgrade', { file: backup, pending: pending.length });
  }
  try {
    return { applied: await migrateToLatest(db, list), backup };
  } catch (err) {
    const why = (err as Error).message;
    // The migrations ran in one transaction, rolled back now: the database is as it was.
    // Checked all the same, since the operator's next step depends on it.
    const after = await appliedMigrations(db).catch(() => null);
    const kept = backup ? ` The backup taken just before is ${backup}.` : '';
    if (after?.join() !== applied.join()) {
      throw new UpgradeFailed(
        `Upgrading the database failed (${why}) and left it partly upgraded.${kept} Restore it with the previous Nodekeep version's \`restore\` command, run that version, and report the error.`,
      );
    }
    // Another process held the write lock past the busy timeout: the next start may well pass.
    if ((err as { cause?: { code?: string } }).cause?.code === 'SQLITE_BUSY') {
      throw new Error(
        `Upgrading the database waited too long for another process writing to it (${why}). Nothing was changed; the next start tries again.`,
      );
    }
    throw new UpgradeFailed(
      `Upgrading the database failed (${why}). Nothing was changed: the database is as it was before the upgrade.${kept} Run the previous Nodekeep version, and report the error.`,
    );
  }
}

/**
 * The command line's start on a data folder. A database from an earlier build is
 * upgraded as a server start upgrades it (backed up first, put back on failure), holding
 * the folder's lock, so never under a running server: a server of the earlier build
 * would go on with a schema it does not know, and its writes could land between two
 * steps of a migration. With a server running the command is refused, saying to
 * restart the server with this build first.
 */
export async function upgradeForCommandLine(
  db: DB,
  config: Pick<Config, 'dataDir' | 'dbFile' | 'backupDir'>,
  writeBackup: BackupWriter,
  list: Record<string, Migration> = migrations,
): Promise<{ applied: string[]; backup: string | null }> {
  const applied = await assertNotNewer(db, config.dataDir, list);
  const pending = Object.keys(list).filter((m) => !applied.includes(m));
  if (!pending.length) return { applied: [], backup: null };
  let lock: { release(): void };
  try {
    lock = lockDataDir(config.dataDir, 'command');
  } catch (err) {
    if (!(err instanceof DataDirInUse)) throw err;
    if (!err.byServer) throw new UpgradeNeedsServer(`${err.who} Wait for it to finish, then run the command again.`);
    throw new UpgradeNeedsServer(
      `${err.who} Its database is from an earlier Nodekeep than this command (${pending.length} migration${pending.length === 1 ? '' : 's'} to run). Restart the server with this version first (it backs the database up and upgrades it), then run the command again.`,
    );
  }
  try {
    // The backup's file is told by the caller; nothing else here is worth a log line.
    return await upgradeDatabase(
      db,
      config,
      createLogger('error', () => {}),
      writeBackup,
      list,
    );
  } finally {
    lock.release();
  }
}
