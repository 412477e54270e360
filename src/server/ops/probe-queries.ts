import { sql } from 'kysely';
import { BUSY_TIMEOUT_MS, type DB } from '../db/open';

/**
 * A real write, the way every writer of ours writes: on the server's own connection, in
 * a BEGIN IMMEDIATE transaction (the write lock), to the one row of `readiness_probe`.
 * While it holds the connection it waits for another process's lock only `busyMs`
 * instead of the usual BUSY_TIMEOUT_MS, so a locked or read-only database fails the
 * probe quickly (better-sqlite3 waits synchronously: the bound also bounds the stall).
 */
export async function probeWrite(db: DB, busyMs: number): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql.raw(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyMs))}`).execute(conn);
    try {
      await sql`BEGIN IMMEDIATE`.execute(conn);
      try {
        await sql`INSERT INTO readiness_probe (id, at) VALUES (1, ${Date.now()}) ON CONFLICT (id) DO UPDATE SET at = excluded.at`.execute(
          conn,
        );
        await sql`COMMIT`.execute(conn);
      } catch (err) {
        await sql`ROLLBACK`.execute(conn).catch(() => {});
        throw err;
      }
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(conn);
    }
  });
}
