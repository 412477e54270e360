import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Notifications (platform-and-account.md sections 3, 7): the in-app rows, the per-user
// email settings (only rows a user saved; a missing row means the kind's default), and
// the HTML part and headers (List-Unsubscribe) of queued mail.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // The kind's typed parameters as JSON: the mail is rendered from them after commit.
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    // The spec's `hour`, fixed when raised: "2026-11-23 14:05" (UTC).
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('cleared_at', 'integer')
    .execute();
  // The dropdown's read: a user's uncleared rows, newest first.
  await sql`CREATE INDEX notifications_user_open ON notifications (user_id, id DESC) WHERE cleared_at IS NULL`.execute(
    db,
  );
  // Pruning of cleared rows.
  await sql`CREATE INDEX notifications_cleared ON notifications (cleared_at) WHERE cleared_at IS NOT NULL`.execute(db);

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('setting', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'setting'])
    .execute();

  await db.schema.alterTable('mail_outbox').addColumn('html', 'text').execute();
  // Extra headers as a JSON object (List-Unsubscribe, List-Unsubscribe-Post).
  await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
}
