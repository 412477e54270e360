import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
export async function up(db: Kysely<any>): Promise<void> {
  // Machines that run nodes: this one ("local") and remote Docker/Podman hosts.
  await db.schema
    .createTable('hosts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('engine', 'text', (c) => c.notNull().check(sql`engine in ('local', 'docker')`))
    .addColumn('url', 'text')
    .addColumn('ipv4', 'text', (c) => c.notNull())
    .addColumn('ipv6', 'text')
    .addColumn('dedicated_slots', 'integer', (c) => c.notNull().check(sql`dedicated_slots >= 0`))
    .addColumn('cloud_slots', 'integer', (c) => c.notNull().check(sql`cloud_slots >= 0`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('active', 'draining', 'gone')`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  const add = (name: string, type: 'text' | 'integer', build?: (c: any) => any) =>
    db.schema
      .alterTable('masternodes')
      .addColumn(name, type, build ?? ((c) => c))
      .execute();
  await add('alias', 'text');
  await add('host_id', 'integer', (c) => c.references('hosts.id'));
  await add('daemon_profile', 'text');
  await add('ports', 'text', (c) => c.notNull().defaultTo('{}'));
  await add('rpc_user', 'text');
  await add('rpc_password', 'text');
  await add('server_ip', 'text');
  await add('server_ip6', 'text');
  await add('status_on_network', 'text');
  await add('status_text', 'text');
  await add('wallet_info', 'text');
  await add('blocks', 'integer');
  await add('active_since', 'integer');
  await add('last_paid', 'integer');
  await add('last_paid_height', 'integer');
  await add('reward_freq_s', 'integer');
  await add('last_checked_at', 'integer');
  await add('last_network_check_at', 'integer');
  await add('engine_restarts', 'integer', (c) => c.notNull().defaultTo(0));
  await add('last_error', 'text');
  await add('hosting_price', 'integer', (c) => c.notNull().defaultTo(0));
  await add('payee', 'text');
  await add('output_text', 'text');
  // The fleet is a control loop: rows say what should exist, the server's reconciler
  // makes the engines match (so the operator's CLI, another process, can ask too).
  await add('provisioned_at', 'integer');
  await add('destroyed_at', 'integer');
  await add('restart_requested_at', 'integer');
  await add('restarted_at', 'integer');
  await db.schema.createIndex('masternodes_host').on('masternodes').columns(['host_id', 'deleted_at']).execute();
}
