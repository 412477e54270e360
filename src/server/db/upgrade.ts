import path from 'node:path';
import { sql, type Migration } from 'kysely';
import { migrations } from '../../../migrations/index';
import type { Config } from '../config';
import type { Logger } from '../log';
import { restoreLocked, writeBackup } from '../ops/backup';
import { migrateToLatest, type DB } from './open';

/** The database was migrated by a newer build: this one must not run on it. */
export class DatabaseTooNew extends Error {}
/** Migrating failed; the data folder was put back as it was. */
export class UpgradeFailed extends Error {}

async function appliedMigrations(db: DB): Promise<string[]> {
  const table = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  if (!Number(table.rows[0].n)) return [];
  return (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name);
}

/** Refuses, with what to do, a database migrated by a newer Nodekeep than this one. */
export async function assertNotNewer(db: DB, dataDir: string, list: Record<string, Migration> = migrations): Promise<string[]> {
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
 * BACKUP_KEEP_DAYS says); if a migration then fails, the database is put back from that
 * backup (the caller holds the data folder's lock) and the start stops saying so. A
 * database from a newer build is refused (`assertNotNewer`). A new one is simply made.
 */
export async function upgradeDatabase(db: DB, config: Pick<Config, 'dataDir' | 'dbFile' | 'backupDir'>, log: Logger, list: Record<string, Migration> = migrations): Promise<string[]> {
  const applied = await assertNotNewer(db, config.dataDir, list);
  const pending = Object.keys(list).filter((m) => !applied.includes(m));
  if (!pending.length) return [];
  let backup: string | null = null;
  if (applied.length) {
    const when = new Date().toISOString().replace(/[:.]/g, '-');
    backup = (await writeBackup(config.dataDir, config.dbFile, path.join(config.backupDir, `nodekeep-before-upgrade-${when}.tar.gz`))).file;
    log.info('database backed up before the upgrade', { file: backup, pending: pending.length });
  }
  try {
    return await migrateToLatest(db, list);
  } catch (err) {
    if (!backup) throw err;
    await db.destroy();
    await restoreLocked(config.dataDir, config.dbFile, backup, Object.keys(list));
    throw new UpgradeFailed(
      `Upgrading the database failed (${(err as Error).message}). The data folder is back as it was before the upgrade, from ${backup}; the half-upgraded database is kept in a before-restore-* folder beside it. Run the previous Nodekeep version, and report the error.`,
    );
  }
}
