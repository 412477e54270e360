import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Per-user alert channels beyond email (a signed webhook, a Telegram chat, a Discord
// webhook). `target` is what the owner may see again (the webhook URL, the chat id, the
// Discord webhook's id); `secret` is sealed (the webhook's signing secret, the bot token,
// the Discord webhook URL with its token). `failures` counts failed deliveries in a row;
// the channel is turned off (disabled_reason set) when it reaches the configured limit.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_channels')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX alert_channels_user ON alert_channels (user_id)`.execute(db);
}
