import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// An idempotency key on queued mail: a job that queues a mail and is retried after its
// insert committed (its attempt timed out, the process died before recording success)
// finds the row by its key instead of queuing the mail a second time. Null for mail that
// needs none; SQLite's unique index lets any number of nulls coexist.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('idempotency_key', 'text').execute();
  await sql`CREATE UNIQUE INDEX mail_outbox_idempotency_key ON mail_outbox (idempotency_key)`.execute(db);
}
