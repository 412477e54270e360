import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
export async function up(db: Kysely<any>): Promise<void> {
  // Operators run the platform; everyone else is a customer. Nothing shows the role.
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('customer')
        .check(sql`role in ('customer', 'operator')`),
    )
    .execute();

  // Keys that scripts send as the bearer token (platform-and-account.md: name up to 48,
  // auth_key, allowed = comma-separated IP list, empty for any address). Only a hash of
  // the key is kept; `key_prefix` is its public, non-secret handle (the spec's auth_key
  // in lists and in save/delete calls).
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 48`))
    .addColumn('key_prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('allowed', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_used_at', 'integer')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
