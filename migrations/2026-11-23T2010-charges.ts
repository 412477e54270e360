import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The daily charge (src/server/billing/daily-charge.ts) keeps, per UTC day, how far it
// got: `cursor` is the last node id whose charge was written, moved in the same
// transaction as that chunk's transfers, so a run cut short (a crash, a SIGKILL, a
// shutdown) goes on from there; `completed_at` marks the day done, and the newest done
// day is where a catch-up after downtime starts; `reminded_at`, that the day's low-balance
// reminders went out (after its charges). The transfers' idempotency keys
// (`charge:<node>:<day>`) are what makes a charge once-only; the cursor only saves work.
//
// `balance_reminders` holds one row per user and day a low-balance reminder was raised:
// the insert that wins is the one reminder of that day.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE charge_days (
      day TEXT PRIMARY KEY CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      cursor INTEGER NOT NULL DEFAULT 0,
      started_at INTEGER NOT NULL,
      completed_at INTEGER,
      reminded_at INTEGER
    ) STRICT`.execute(db);
  await sql`
    CREATE TABLE balance_reminders (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (user_id, day)
    ) STRICT`.execute(db);
}
