import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
export async function up(db: Kysely<any>): Promise<void> {
  // Queued background work (src/server/jobs). A row is due when `run_at` has passed:
  // for a queued row that is when it may run; for a running row it is the end of its
  // lease (attempt deadline plus grace), after which another process may claim it
  // again, because its owner died. Finished rows are deleted; failed ones stay a while.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
  // Single flight: one live (queued or running) job per key.
  await sql`create unique index jobs_live_key on jobs (key) where state in ('queued', 'running')`.execute(db);
  await sql`create index jobs_due on jobs (run_at) where state in ('queued', 'running')`.execute(db);

  // Mail still pending from before the runner becomes its jobs, keeping its attempt count.
  await sql`insert into jobs (name, key, payload, state, attempts, run_at, created_at, updated_at)
    select 'mail.send', 'mail:' || id, json_object('mail_id', id), 'queued', attempts, next_attempt_at, created_at, created_at
    from mail_outbox where status = 'pending'`.execute(db);
}
