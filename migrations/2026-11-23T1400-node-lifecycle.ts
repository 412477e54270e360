import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The 37-column `masternodes` row was owned by three domains through nullable
// timestamps. It becomes three tables, each written by one domain:
//   nodes         the customer's node and its lifecycle state (nodes, deploy)
//   placements    where and how the fleet runs it (fleet)
//   observations  what the monitor last saw (fleet monitor)
// and one read-only view, node_view, that joins them for readers.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('nodes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('mn_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('coin_id', 'text', (c) => c.notNull().references('coins.id'))
    .addColumn('package', 'text', (c) => c.notNull().check(sql`package in ('dedicated', 'cloud')`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .check(sql`state in ('requested', 'placing', 'provisioning', 'live', 'deleting', 'deleted', 'failed')`),
    )
    .addColumn('failed_reason', 'text')
    .addColumn('alias', 'text')
    // What the customer typed: a transaction id, an address or a licence key, by family.
    .addColumn('entry', 'text')
    .addColumn('payee', 'text')
    .addColumn('output_text', 'text')
    // Sealed JSON of the secrets the node runs with (src/server/secrets): never plaintext.
    .addColumn('secrets', 'text')
    .addColumn('validator_pubkey', 'text')
    .addColumn('fee_recipient', 'text')
    // One deploy call may create many nodes (Satori neurons): they share this id.
    .addColumn('deploy_id', 'text')
    // The customer's start step (register_submit, quick_setup) succeeded.
    .addColumn('started_at', 'integer')
    .addColumn('delete_reason', 'text')
    .addColumn('hosting_price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('simulated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('state_at', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'integer')
    .execute();
  await db.schema.createIndex('nodes_user').on('nodes').columns(['user_id', 'state']).execute();
  await db.schema.createIndex('nodes_coin').on('nodes').columns(['coin_id', 'state']).execute();
  await db.schema.createIndex('nodes_state').on('nodes').columns(['state', 'state_at']).execute();
  // A validator key runs once, on any account: two signers of one key get it slashed.
  // A node that failed never ran the key (failed_reason stays set when it is then deleted).
  await sql`CREATE UNIQUE INDEX nodes_validator_pubkey ON nodes (validator_pubkey) WHERE validator_pubkey IS NOT NULL AND state NOT IN ('deleted', 'failed') AND failed_reason IS NULL`.execute(
    db,
  );
  // ZEN: a t_address serves one node ever (section 5).
  await sql`CREATE INDEX nodes_entry ON nodes (coin_id, entry)`.execute(db);

  await db.schema
    .createTable('placements')
    .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
    .addColumn('host_id', 'integer', (c) => c.references('hosts.id'))
    .addColumn('daemon_profile', 'text', (c) => c.notNull())
    .addColumn('ports', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('rpc_user', 'text')
    .addColumn('rpc_password', 'text')
    .addColumn('server_ip', 'text')
    .addColumn('server_ip6', 'text')
    // The coin's fixed public P2P port on server_ip (null: the simulator needs none).
    .addColumn('p2p_port', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('provisioned_at', 'integer')
    .addColumn('restart_requested_at', 'integer')
    .addColumn('restarted_at', 'integer')
    .addColumn('engine_restarts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('destroyed_at', 'integer')
    .execute();
  await db.schema.createIndex('placements_host').on('placements').columns(['host_id', 'destroyed_at']).execute();
  // One node per public address and port: the network finds a masternode by ip:port.
  await sql`CREATE UNIQUE INDEX placements_address ON placements (server_ip, p2p_port) WHERE p2p_port IS NOT NULL AND destroyed_at IS NULL`.execute(
    db,
  );

  await db.schema
    .createTable('observations')
    .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_on_network', 'text')
    .addColumn('status_text', 'text')
    .addColumn('problem', 'text')
    .addColumn('wallet_info', 'text')
    .addColumn('blocks', 'integer')
    .addColumn('activity', 'text')
    .addColumn('pose_penalty', 'integer')
    .addColumn('active_since', 'integer')
    .addColumn('last_paid', 'integer')
    .addColumn('last_paid_height', 'integer')
    .addColumn('reward_freq_s', 'integer')
    .addColumn('first_answer_at', 'integer')
    .addColumn('checked_at', 'integer')
    .addColumn('network_checked_at', 'integer')
    .execute();

  // Carry the old rows over.
  await sql`
    INSERT INTO nodes (id, mn_id, user_id, coin_id, package, state, failed_reason, alias, payee, output_text, hosting_price, simulated, created_at, state_at, deleted_at)
    SELECT id, mn_id, user_id, coin_id, package,
      CASE
        WHEN deleted_at IS NOT NULL AND destroyed_at IS NOT NULL THEN 'deleted'
        WHEN deleted_at IS NOT NULL THEN 'deleting'
        WHEN status = 'deploying' AND host_id IS NULL THEN 'requested'
        WHEN status = 'deploying' THEN 'provisioning'
        WHEN status = 'error' AND last_checked_at IS NULL AND active_since IS NULL THEN 'failed'
        ELSE 'live'
      END,
      CASE WHEN status = 'error' AND last_checked_at IS NULL AND active_since IS NULL THEN last_error END,
      alias, payee, output_text, hosting_price, simulated, created_at, COALESCE(provisioned_at, created_at), deleted_at
    FROM masternodes`.execute(db);
  await sql`
    INSERT INTO placements (node_id, host_id, daemon_profile, ports, rpc_user, rpc_password, server_ip, server_ip6, last_error, provisioned_at, restart_requested_at, restarted_at, engine_restarts, destroyed_at)
    SELECT id, host_id, daemon_profile, ports, rpc_user, rpc_password, server_ip, server_ip6, last_error, provisioned_at, restart_requested_at, restarted_at, engine_restarts, destroyed_at
    FROM masternodes WHERE daemon_profile IS NOT NULL`.execute(db);
  await sql`
    INSERT INTO observations (node_id, status, status_on_network, status_text, problem, wallet_info, blocks, active_since, last_paid, last_paid_height, reward_freq_s, first_answer_at, checked_at, network_checked_at)
    SELECT id, status, status_on_network, status_text, last_error, wallet_info, blocks, active_since, last_paid, last_paid_height, reward_freq_s, last_checked_at, last_checked_at, last_network_check_at
    FROM masternodes WHERE last_checked_at IS NOT NULL`.execute(db);
  await db.schema.dropTable('masternodes').execute();

  // What readers see of a node: one row per node with the fleet's and the monitor's parts.
  // `status` is the customer-facing status: deploying while set up, error when failed,
  // else what the monitor saw (unknown before its first look).
  await sql`
    CREATE VIEW node_view AS
    SELECT n.id, n.mn_id, n.user_id, n.coin_id, n.package, n.state, n.failed_reason, n.alias, n.entry, n.payee,
      n.output_text, n.secrets, n.validator_pubkey, n.fee_recipient, n.deploy_id, n.started_at, n.delete_reason,
      n.hosting_price, n.simulated, n.created_at, n.state_at, n.deleted_at,
      p.host_id, p.daemon_profile, COALESCE(p.ports, '{}') AS ports, p.rpc_user, p.rpc_password, p.server_ip, p.server_ip6,
      p.p2p_port, COALESCE(p.attempts, 0) AS attempts, p.next_attempt_at, p.provisioned_at, p.restart_requested_at,
      p.restarted_at, COALESCE(p.engine_restarts, 0) AS engine_restarts, p.destroyed_at,
      CASE
        WHEN n.state IN ('requested', 'placing', 'provisioning') THEN 'deploying'
        WHEN n.state = 'failed' THEN 'error'
        ELSE COALESCE(o.status, 'unknown')
      END AS status,
      o.status_on_network, o.status_text, o.wallet_info, o.blocks, o.activity, o.pose_penalty, o.active_since,
      o.last_paid, o.last_paid_height, o.reward_freq_s, o.first_answer_at,
      o.checked_at AS last_checked_at, o.network_checked_at AS last_network_check_at,
      CASE WHEN n.state = 'failed' THEN n.failed_reason ELSE COALESCE(o.problem, p.last_error) END AS last_error
    FROM nodes n
    LEFT JOIN placements p ON p.node_id = n.id
    LEFT JOIN observations o ON o.node_id = n.id`.execute(db);
}
