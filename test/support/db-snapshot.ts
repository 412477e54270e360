import { sql } from 'kysely';
import type { DB } from '../../src/server/db/open';

/**
 * What the platform's own loops rewrite while a test server runs, whatever a request did:
 * the job runner's state, the host check's disk figures, the monitor's observations, the
 * market refresher's quotes and status (and the broadcast `update_stats` event it writes
 * after each refresh), the readiness probe.
 */
const BACKGROUND = new Set(['jobs', 'hosts', 'observations', 'market_quotes', 'market_history', 'readiness_probe']);

/** Every row of every table but the background loops', as text: equal snapshots mean no request changed anything. */
export async function snapshot(db: DB): Promise<string> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    if (BACKGROUND.has(name)) continue;
    // In text order, not by rowid: WITHOUT ROWID tables (node_charges) have none.
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    out[name] = rows.filter((r) => !(name === 'settings' && r.key === 'market_status') && !(name === 'events' && r.type === 'update_stats' && r.user_id === null)).map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(out);
}
