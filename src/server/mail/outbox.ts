import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { enqueueJob } from '../jobs/queue';

/** Every mail has a text part; notification mail adds an HTML part and List-Unsubscribe headers. */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
};

/**
 * Queues a mail in the caller's transaction, with the job that sends it after commit
 * (a `mail.send` job per mail, so a mail the server hangs on holds up no other).
 * With an idempotency key, a mail already queued under that key is not queued again
 * (a retried job that queues mail); returns whether this call queued it.
 */
export async function enqueueMail(
  db: Kysely<Database>,
  mail: MailMessage,
  opts: { idempotencyKey?: string } = {},
): Promise<boolean> {
  const now = Date.now();
  const row = await db
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
      idempotency_key: opts.idempotencyKey ?? null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await enqueueJob(db, 'mail.send', { mail_id: row.id }, { key: `mail:${row.id}` });
  return true;
}

export function findMail(db: Kysely<Database>, id: number) {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

export function markMail(
  db: Kysely<Database>,
  id: number,
  patch: {
    status: 'pending' | 'sent' | 'logged' | 'failed';
    attempts: number;
    next_attempt_at?: number;
    last_error?: string | null;
    sent_at?: number;
  },
) {
  return db.updateTable('mail_outbox').set(patch).where('id', '=', id).execute();
}

/**
 * The operator's backlog: mail not sent yet (how many, when the oldest was written and
 * when the longest-waiting was due) and mail given up on. Reads the status index only.
 */
export async function mailBacklog(
  db: Kysely<Database>,
): Promise<{ pending: number; failed: number; oldestPendingAt: number | null; oldestDueAt: number | null }> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select([
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.min('created_at').as('oldest'),
      (eb) => eb.fn.min('next_attempt_at').as('due'),
    ])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute();
  const pending = rows.find((r) => r.status === 'pending');
  const failed = rows.find((r) => r.status === 'failed');
  const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
  return {
    pending: Number(pending?.n ?? 0),
    failed: Number(failed?.n ?? 0),
    oldestPendingAt: num(pending?.oldest),
    oldestDueAt: num(pending?.due),
  };
}
