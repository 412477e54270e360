import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Quiet hours hold alert-channel deliveries (webhook, Telegram, Discord) as well as mail:
// `channels_held` marks a notification raised during them (1) until the summary sent to
// each channel when they end has taken it (2). 0: delivered at once as before.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('channels_held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX notifications_channels_held ON notifications (user_id) WHERE channels_held = 1`.execute(db);
}
