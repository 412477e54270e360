import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A registration whose email already has an account creates no account, but holds its
// username until the time an unverified registration's link would expire: the username
// then answers "taken" whatever the email's state (src/server/auth/README.md). Keyed like users.username_key (trimmed, lower case).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE username_holds (
      username_key TEXT PRIMARY KEY,
      expires_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`CREATE INDEX username_holds_expiry ON username_holds (expires_at)`.execute(db);
}
