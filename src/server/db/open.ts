import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { openSqlite } from './sqlite';
import { Kysely, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { migrations } from '../../../migrations/index';
import { secureDataDir, secureFile } from './data-dir';
import { FifoSqliteDialect } from './fifo-driver';
import type { Database } from './schema';

export type DB = Kysely<Database>;

/** How long a writer waits for another process's write lock (the CLI's) before failing. */
export const BUSY_TIMEOUT_MS = 5000;

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly all: Record<string, Migration>) {}
  async getMigrations() {
    return this.all;
  }
}

/**
 * Opens (creating if needed) the database file in WAL mode. The CLI and the server
 * share the file, so writers wait for each other (busy_timeout) instead of failing.
 */
export function openDatabase(file: string): DB {
  secureDataDir(path.dirname(file));
  // Owner-only; SQLite gives its -wal and -shm files the main file's permissions.
  secureFile(file);
  for (const side of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(side)) secureFile(side);
  const sqlite = openSqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // A page cache of up to 64 MiB (the default is 2 MiB): with a million nodes, the daily
  // charge's indexes and the ledger's hot pages stay in memory between its chunks. And a
  // checkpoint every 10,000 WAL pages (~40 MiB; default 1,000), so the pages many small
  // transactions rewrite are copied back once, not once per few chunks (docs/benchmarks.md).
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('wal_autocheckpoint = 10000');
  const reader = openReader(file);
  const db = new Kysely<Database>({
    dialect: new FifoSqliteDialect({ database: withStatementCache(sqlite, 500, () => reader.close()) }),
  });
  connections.set(db, sqlite);
  readers.set(db, reader);
  return db;
}

const connections = new WeakMap<DB, SQLite.Database>();

/**
 * The SQLite connection under `db`, for SQLite's online backup: run on the connection
 * that writes, a backup in small steps takes each write in as it happens instead of
 * restarting (src/server/ops/README.md).
 */
export function connectionOf(db: DB): SQLite.Database {
  const c = connections.get(db);
  if (!c) throw new Error('not a database opened by openDatabase');
  return c;
}

/**
 * Kysely prepares every query anew; the same few SQL texts repeat on every request,
 * so keep their prepared statements. Safe because Kysely's SQLite driver runs each
 * statement to completion synchronously (we never stream query results).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500, onClose = () => {}) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      onClose();
      sqlite.close();
    },
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB, list: Record<string, Migration> = migrations): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(list) });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrations this code has that the database has not run (`pending`), and ones the
 * database ran that this code does not know (`unknown`: a newer version migrated it).
 * Either way this process and its database disagree (/readyz).
 */
export async function migrationState(db: DB): Promise<{ pending: string[]; unknown: string[] }> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const applied = new Set(rows.map((r) => r.name));
  const known = Object.keys(migrations);
  return { pending: known.filter((n) => !applied.has(n)), unknown: [...applied].filter((n) => !known.includes(n)) };
}

/**
 * A second, read-only connection for the reads every request makes (db/hot-read.ts).
 * Kysely's one connection is held for a whole transaction, awaits included, so a read
 * through it waits for any transaction in progress (the daily charge's chunks, a
 * deposit); and a read on that connection in the middle of one would see its uncommitted
 * writes. In WAL mode this connection reads the last committed state at once, without
 * waiting for the writer. Opened on first use; closed with the database.
 */
export type Reader = { get(sql: string, params: unknown[]): unknown; close(): void };

const readers = new WeakMap<DB, Reader>();

function openReader(file: string): Reader {
  let conn: SQLite.Database | null = null;
  const statements = new Map<string, SQLite.Statement>();
  return {
    get(sql, params) {
      if (!conn) {
        conn = openSqlite(file, { readonly: true, fileMustExist: true });
        conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = conn.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt.get(...params);
    },
    close() {
      conn?.close();
      conn = null;
      statements.clear();
    },
  };
}

/** The read-only connection beside `db`, or null for a transaction (it must read its own writes). */
export function readerOf(db: unknown): Reader | null {
  return readers.get(db as DB) ?? null;
}
