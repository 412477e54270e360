import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { enqueueJob } from '../jobs/queries';

/** Every mail has a text part; notification mail adds an HTML part and List-Unsubscribe headers. */
export type MailMessage = { to: string; subject: string; text: string; html?: string; headers?: Record<string, string> };

/**
 * Queues a mail in the caller's transaction, with the job that sends it after commit
 * (a `mail.send` job per mail, so a mail the server hangs on holds up no other).
 */
export async function enqueueMail(db: Kysely<Database>, mail: MailMessage): Promise<void> {
  const now = Date.now();
  const { id } = await db
    .insertInto('mail_outbox')
    .values({
      to_addr: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      headers: mail.headers ? JSON.stringify(mail.headers) : null,
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await enqueueJob(db, 'mail.send', { mail_id: id }, { key: `mail:${id}` });
}

export function findMail(db: Kysely<Database>, id: number) {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

export function markMail(
  db: Kysely<Database>,
  id: number,
  patch: { status: 'pending' | 'sent' | 'logged' | 'failed'; attempts: number; next_attempt_at?: number; last_error?: string | null; sent_at?: number },
) {
  return db.updateTable('mail_outbox').set(patch).where('id', '=', id).execute();
}
