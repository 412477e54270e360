import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Alert state (issue 9). `node_alerts`: per node, the flap damping of down/up (the failing
// streak's start, whether a down is owed its "back up", the 30-minute window and the flap
// count), the last network / action state and reward height already alerted, and the
// owner's mute. Kept in the database so a restart neither loses nor repeats an alert.
// `quiet_hours`: per user, the UTC hours during which mail is held (in-app rows are still
// written) and summarised after; `notifications.mail_held` marks a row whose mail waits
// for that summary (1 waiting, 2 summarised).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('node_alerts')
    .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
    .addColumn('failing_since', 'integer')
    // 0 none owed; 1 a down was raised and its "back up" is owed; 2 a down reached while muted (nothing owed).
    .addColumn('down_raised', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_down_at', 'integer')
    .addColumn('streak_counted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flaps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('network_alerted', 'text')
    .addColumn('action_alerted', 'text')
    .addColumn('reward_height', 'integer')
    .addColumn('muted', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`muted in (0, 1)`),
    )
    .execute();

  await db.schema
    .createTable('quiet_hours')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('start_hour', 'integer', (c) => c.notNull().check(sql`start_hour between 0 and 23`))
    .addColumn('end_hour', 'integer', (c) => c.notNull().check(sql`end_hour between 0 and 23`))
    .execute();

  await db.schema
    .alterTable('notifications')
    .addColumn('mail_held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX notifications_mail_held ON notifications (user_id) WHERE mail_held = 1`.execute(db);
}
