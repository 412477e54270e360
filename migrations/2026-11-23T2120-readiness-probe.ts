import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// One row that /readyz rewrites on each check: proof that the database takes a write
// (a real one, in a BEGIN IMMEDIATE transaction), without touching a table anyone reads.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE readiness_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL) STRICT`.execute(
    db,
  );
}
