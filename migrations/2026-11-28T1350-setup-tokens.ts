import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The first-run link (src/server/auth/README.md): while no operator exists, the server
// prints `<PUBLIC_URL>/setup/<token>`; the token is kept only as its SHA-256, with the
// authenticator secret the page enrols, and lives one hour.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE setup_tokens (
      token_hash TEXT PRIMARY KEY,
      tfa_secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) STRICT`.execute(db);
}
