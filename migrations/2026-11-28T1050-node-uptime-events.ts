import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The node page's uptime chart and its events list. `node_uptime`: per node and UTC day,
// how many of the monitor's checks found the daemon answering out of how many were made
// (a count per day, not a row per check: 30 days stay small at a check every few seconds).
// `node_events`: what happened to a node that its owner sees (a restart asked for and
// done); the newest owner restart also bounds how often the owner may ask again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('node_uptime')
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    // Days since 1970-01-01 UTC.
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('up', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('node_uptime_pk', ['node_id', 'day'])
    .execute();
  await db.schema
    .createTable('node_events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('node_events_node_at').on('node_events').columns(['node_id', 'at']).execute();
}
