import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The daily charge becomes one ledger transfer per owner and day (`daily:<day>:<user>:<first
// node>`, the sum of that owner's node fees), with each node's fee for the day kept here: the
// row's key is the node and the day (a node has one owner for life, so (day, user_id,
// node_id) is as unique as (day, node_id), and ordered the way the charge walks: owner
// by owner, so its inserts append). A node is charged once per day because its row can
// be written once; the owner's transfer is written in the same transaction.
//
// `charge_days.cursor` now counts owners, no longer node ids: (cursor, cursor_node) is the
// last (owner, node) charged, walking owners in order and each owner's nodes oldest first
// (an owner with more nodes than a chunk spans several). Days still open restart from the
// first owner: their nodes already
// charged (one `charge:<node>:<day>` transfer each, before this change) get their rows
// here first, so nothing is charged twice.
//
// `nodes_charged`: what the charge reads of each node, in the order it reads them,
// without visiting the table (1M nodes scattered over owners).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE node_charges (
      day TEXT NOT NULL,
      user_id INTEGER NOT NULL,
      node_id INTEGER NOT NULL,
      amount INTEGER NOT NULL CHECK (amount > 0),
      PRIMARY KEY (day, user_id, node_id)
    ) STRICT, WITHOUT ROWID`.execute(db);
  await sql`
    INSERT INTO node_charges (day, user_id, node_id, amount)
    SELECT substr(t.idempotency_key, length(t.idempotency_key) - 9), n.user_id, n.id, t.amount
    FROM ledger_transfers t
    JOIN nodes n ON n.id = CAST(substr(t.idempotency_key, 8, length(t.idempotency_key) - 18) AS INTEGER)
    WHERE t.kind = 'daily_charge' AND t.idempotency_key GLOB 'charge:*:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`.execute(
    db,
  );
  await sql`ALTER TABLE charge_days ADD COLUMN cursor_node INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE charge_days SET cursor = 0 WHERE completed_at IS NULL`.execute(db);
  await sql`
    CREATE INDEX nodes_charged ON nodes (user_id, id, created_at, deleted_at, hosting_price)
    WHERE failed_reason IS NULL AND hosting_price > 0`.execute(db);
}
