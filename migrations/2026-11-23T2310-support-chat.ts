import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Support chat: one conversation per customer (or per visitor, who is known by the email
// they left and a random token their browser keeps, stored here only as its SHA-256),
// and its messages. The unread counters are kept on the conversation so the console's
// inbox is one indexed read, not a count over every message.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE support_conversations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER UNIQUE REFERENCES users (id),
      visitor_email TEXT,
      token_hash TEXT UNIQUE,
      created_at INTEGER NOT NULL,
      last_message_at INTEGER NOT NULL,
      operator_unread INTEGER NOT NULL DEFAULT 0,
      customer_unread INTEGER NOT NULL DEFAULT 0,
      CHECK ((user_id IS NULL) != (token_hash IS NULL)),
      CHECK (user_id IS NOT NULL OR visitor_email IS NOT NULL)
    ) STRICT`.execute(db);
  await sql`CREATE INDEX support_conversations_recent ON support_conversations (last_message_at)`.execute(db);
  await sql`CREATE INDEX support_conversations_unread ON support_conversations (operator_unread) WHERE operator_unread > 0`.execute(
    db,
  );
  await sql`
    CREATE TABLE support_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      conversation_id INTEGER NOT NULL REFERENCES support_conversations (id),
      from_operator INTEGER NOT NULL CHECK (from_operator IN (0, 1)),
      operator_id INTEGER REFERENCES users (id),
      body TEXT NOT NULL,
      outside_hours INTEGER NOT NULL DEFAULT 0 CHECK (outside_hours IN (0, 1)),
      created_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`CREATE INDEX support_messages_conversation ON support_messages (conversation_id, id)`.execute(db);
}
