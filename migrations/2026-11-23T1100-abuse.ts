import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
// Visits are capped per user and pruned by age; both need an index to stay cheap.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('page_visits_user').on('page_visits').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('page_visits_at').on('page_visits').column('at').execute();
}
