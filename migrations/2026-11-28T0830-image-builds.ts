import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// One row per image build the operator asked for (`images build`, the console's Catalog
// page): which profile's recipe, on which host, with which build arguments, how it went
// and the last lines of its output.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('image_builds')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('build_args', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('log_tail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'integer')
    .addColumn('finished_at', 'integer')
    .execute();
  await db.schema.createIndex('image_builds_profile').on('image_builds').columns(['profile', 'id']).execute();
}
