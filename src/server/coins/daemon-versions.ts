import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/*
 * The daemon version new nodes of a coin get (`coin_daemon_versions`; none: the daemon
 * profile's). A rollout (nodes/rollouts.ts) sets it; provisioning reads it.
 */

/** The version new nodes of a coin get (null: the profile's). */
export async function coinDaemonVersion(db: Q, coinId: string): Promise<string | null> {
  const row = await db
    .selectFrom('coin_daemon_versions')
    .select('version')
    .where('coin_id', '=', coinId)
    .executeTakeFirst();
  return row?.version ?? null;
}

/** Each coin's set version, by coin id (coins without one are absent). */
export async function coinDaemonVersions(db: Q): Promise<Map<string, string>> {
  const rows = await db.selectFrom('coin_daemon_versions').select(['coin_id', 'version']).execute();
  return new Map(rows.map((r) => [r.coin_id, r.version]));
}

/** Sets (or, with null, clears) the version new nodes of a coin get. */
export async function setCoinDaemonVersion(db: Q, coinId: string, version: string | null, now: number): Promise<void> {
  if (version === null) {
    await db.deleteFrom('coin_daemon_versions').where('coin_id', '=', coinId).execute();
    return;
  }
  await db
    .insertInto('coin_daemon_versions')
    .values({ coin_id: coinId, version, set_at: now })
    .onConflict((oc) => oc.column('coin_id').doUpdateSet({ version, set_at: now }))
    .execute();
}
