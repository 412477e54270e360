import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The operator log says who did what, when and from where (issue 11): `actor` is the
// kind of writer (a console operator, the CLI, or the platform itself), `actor_user_id`
// the operator's account, `actor_name` what names the writer beyond that (the CLI's OS
// user, the platform job), `address` the request's IP ('cli' for the command line).
// Rows from before were written without any of it: they say 'unknown'.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('operator_log')
    .addColumn('actor', 'text', (c) =>
      c
        .notNull()
        .defaultTo('unknown')
        .check(sql`actor in ('operator', 'cli', 'system', 'unknown')`),
    )
    .execute();
  await db.schema
    .alterTable('operator_log')
    .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('operator_log')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('operator_log')
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // The console browses newest first, filtered by action or operator.
  await db.schema.createIndex('operator_log_at').on('operator_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('operator_log_action').on('operator_log').columns(['action', 'at']).execute();
  await db.schema.createIndex('operator_log_actor').on('operator_log').columns(['actor_user_id', 'at']).execute();
}
