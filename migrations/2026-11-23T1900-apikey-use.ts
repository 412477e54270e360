import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// API keys: read-only keys (queries only) and the address of the last use, shown in the
// list next to its time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('read_only', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`read_only in (0, 1)`),
    )
    .execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_ip', 'text').execute();
}
