import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type MailMessage = { to: string; subject: string; text: string };

/** Queues a mail in the caller's transaction; the dispatcher sends it after commit. */
export async function enqueueMail(db: Kysely<Database>, mail: MailMessage): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('mail_outbox')
    .values({ to_addr: mail.to, subject: mail.subject, text: mail.text, status: 'pending', next_attempt_at: now, created_at: now })
    .execute();
}

export function dueMails(db: Kysely<Database>, now: number, limit = 20) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function markMail(
  db: Kysely<Database>,
  id: number,
  patch: { status: 'pending' | 'sent' | 'logged' | 'failed'; attempts: number; next_attempt_at?: number; last_error?: string | null; sent_at?: number },
) {
  return db.updateTable('mail_outbox').set(patch).where('id', '=', id).execute();
}
