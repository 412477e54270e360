import { sql } from 'kysely';
import type { DB } from './open';

/**
 * Runs `fn` with SQLite's secure_delete on, so the bytes of what it deletes or rewrites
 * (a plaintext secret moving out of a row) are zeroed in the file instead of lingering in
 * free space. The connection's setting is restored afterwards.
 */
export async function withSecureDelete<T>(db: DB, fn: () => Promise<T>): Promise<T> {
  const prior = (await sql<{ secure_delete: number }>`PRAGMA secure_delete`.execute(db)).rows[0]?.secure_delete ?? 0;
  await sql`PRAGMA secure_delete = ON`.execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`PRAGMA secure_delete = ${Number(prior) ? 'ON' : 'OFF'}`).execute(db);
  }
}

/**
 * Copies the write-ahead log into the database file and empties it, so page images that
 * held a secret before it was scrubbed leave the -wal file too. `busy` when a reader kept
 * part of the log (another process on the file); the next checkpoint finishes it.
 */
export async function truncateWal(db: DB): Promise<{ busy: boolean }> {
  const r = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return { busy: (r.rows[0]?.busy ?? 0) !== 0 };
}
