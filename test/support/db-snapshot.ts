import { sql } from 'kysely';
import { waitFor } from './wait';
import type { DB } from '../../src/server/db/open';
import { SETTING_UP } from '../../src/shared/lifecycle';

/**
 * What the platform's own loops rewrite while a test server runs, whatever a request did:
 * the job runner's state, the host check's disk figures, the monitor's observations, the
 * market refresher's quotes and status (and the broadcast `update_stats` event it writes
 * after each refresh), the readiness probe.
 */
const BACKGROUND = new Set(['jobs', 'hosts', 'observations', 'market_quotes', 'market_history', 'readiness_probe']);

/** Every row of every table but the background loops', as text: equal snapshots mean no request changed anything. */
export async function snapshot(db: DB): Promise<string> {
  const tables = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    if (BACKGROUND.has(name)) continue;
    // In text order, not by rowid: WITHOUT ROWID tables (node_charges) have none.
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    out[name] = rows
      .filter(
        (r) =>
          !(name === 'settings' && r.key === 'market_status') &&
          !(name === 'events' && r.type === 'update_stats' && r.user_id === null),
      )
      // A mail's delivery (sent, retried, failed) is the dispatcher's, after the request that
      // queued it: a mail queued is counted, its later delivery is not blamed on a later request.
      .map((r) =>
        JSON.stringify(
          name === 'mail_outbox'
            ? {
                ...r,
                status: undefined,
                attempts: undefined,
                next_attempt_at: undefined,
                last_error: undefined,
                sent_at: undefined,
              }
            : r,
        ),
      )
      .sort();
  }
  return JSON.stringify(out);
}

/**
 * A snapshot once the work a previous request set off has ended: no mail due in the
 * outbox (the dispatcher marks each sent or logged after the request answered), no node
 * still being set up, and two snapshots in a row alike. Taken before a request that must
 * change nothing, so a late write of the one before is not blamed on it.
 */
export async function settledSnapshot(db: DB): Promise<string> {
  let last = '';
  return waitFor(
    async () => {
      const due = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', Date.now())
        .limit(1)
        .executeTakeFirst();
      if (due) return null;
      // A node being set up moves on by itself (placed, provisioned, its first answer):
      // two snapshots taken between those steps are alike and settle nothing.
      const settingUp = await db
        .selectFrom('nodes')
        .select('id')
        .where('state', 'in', SETTING_UP)
        .limit(1)
        .executeTakeFirst();
      if (settingUp) return null;
      const now = await snapshot(db);
      const same = now === last;
      last = now;
      return same ? now : null;
    },
    20_000,
    'the database to settle',
  );
}
