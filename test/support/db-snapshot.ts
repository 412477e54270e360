import { sql } from 'kysely';
import type { DB } from '../../src/server/db/open';

/** Every row of every table, as text: equal snapshots mean nothing changed. */
export async function snapshot(db: DB): Promise<string> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) out[name] = (await sql`select * from ${sql.table(name)} order by rowid`.execute(db)).rows;
  return JSON.stringify(out);
}
