import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Daemon upgrades. `placements.daemon_version`: the version a node's daemon runs (null:
// its profile's). `coin_daemon_versions`: the version new nodes of a coin get (none: the
// profile's). A rollout moves a coin's nodes from one version to another in batches (a
// canary first), each node's step kept so a restart resumes where it was.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE placements ADD COLUMN daemon_version TEXT`.execute(db);
  await sql`
    CREATE TABLE coin_daemon_versions (
      coin_id TEXT PRIMARY KEY REFERENCES coins (id),
      version TEXT NOT NULL,
      set_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`
    CREATE TABLE daemon_rollouts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      coin_id TEXT NOT NULL REFERENCES coins (id),
      from_version TEXT,
      to_version TEXT NOT NULL,
      batch_size INTEGER NOT NULL CHECK (batch_size BETWEEN 1 AND 1000),
      batches INTEGER NOT NULL,
      current_batch INTEGER NOT NULL DEFAULT 0,
      state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'done', 'halted', 'aborted')),
      reason TEXT,
      started_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      finished_at INTEGER
    ) STRICT`.execute(db);
  // At most one unfinished rollout per coin.
  await sql`CREATE UNIQUE INDEX daemon_rollouts_open ON daemon_rollouts (coin_id) WHERE state IN ('running', 'paused')`.execute(
    db,
  );
  await sql`
    CREATE TABLE daemon_rollout_nodes (
      rollout_id INTEGER NOT NULL REFERENCES daemon_rollouts (id),
      node_id INTEGER NOT NULL REFERENCES nodes (id),
      batch INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'upgrading', 'healthy', 'failed', 'rolled_back', 'skipped')),
      error TEXT,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (rollout_id, node_id)
    ) STRICT, WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX daemon_rollout_nodes_batch ON daemon_rollout_nodes (rollout_id, batch)`.execute(db);
}
