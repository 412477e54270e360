import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A counter every change that can end a session or alter its account moves, so a process
// that keeps resolved sessions in memory (src/server/auth/session-cache.ts) can tell with
// one read whether any of them may be stale. Triggers, not application code, move it: the
// `users` CLI writes the same file from another process.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE auth_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT`.execute(db);
  await sql`INSERT INTO auth_epoch (id, n) VALUES (1, 0)`.execute(db);
  // A session's last-use write only moves its expiry later; every other change may end it.
  await sql`
    CREATE TRIGGER auth_epoch_session_update AFTER UPDATE ON sessions
    WHEN NEW.revoked_at IS NOT OLD.revoked_at OR NEW.expires_at < OLD.expires_at
      OR NEW.token_hash IS NOT OLD.token_hash OR NEW.user_id IS NOT OLD.user_id
    BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`.execute(db);
  await sql`
    CREATE TRIGGER auth_epoch_session_delete AFTER DELETE ON sessions
    BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`.execute(db);
  // Any column of the account: the cached row is what every request sees (role, 2FA, email).
  await sql`
    CREATE TRIGGER auth_epoch_user_update AFTER UPDATE ON users
    BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`.execute(db);
  await sql`
    CREATE TRIGGER auth_epoch_user_delete AFTER DELETE ON users
    BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`.execute(db);
}
