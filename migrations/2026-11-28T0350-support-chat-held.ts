import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A visitor's conversation opened past the hourly rate of new ones is held (`held` 1): it
// reaches the operators' inbox only once the visitor confirms their email from a mailed
// link. The link's token is stored as its SHA-256 (`confirm_token_hash`) with its expiry;
// the hash stays after confirmation (`confirmed_at`), so a second use of the link is told
// apart from a bad one. Held conversations never confirmed are deleted by pruning.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('support_conversations')
    .addColumn('held', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`held IN (0, 1)`),
    )
    .execute();
  await db.schema.alterTable('support_conversations').addColumn('confirm_token_hash', 'text').execute();
  await db.schema.alterTable('support_conversations').addColumn('confirm_expires_at', 'integer').execute();
  await db.schema.alterTable('support_conversations').addColumn('confirmed_at', 'integer').execute();
  await sql`CREATE UNIQUE INDEX support_conversations_confirm_token ON support_conversations (confirm_token_hash) WHERE confirm_token_hash IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX support_conversations_held ON support_conversations (confirm_expires_at) WHERE held = 1`.execute(
    db,
  );
}
