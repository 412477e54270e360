import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// `coins check`: a coin's daemon tried on a host before the coin is offered (image there,
// pinned version, the platform's calls answered, P2P port free). One row per check asked
// for; the newest finished one per coin and host is the coin's readiness there.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('coin_checks')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('coin_id', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    // Null until the check chose a host (none named and none could take the coin).
    .addColumn('host_id', 'integer')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'passed', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('steps', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('program', 'text')
    // The image's id (or the file's size and time) the check ran: a change runs it again.
    .addColumn('program_id', 'text')
    .addColumn('requested_at', 'integer', (c) => c.notNull())
    .addColumn('checked_at', 'integer')
    .execute();
  await db.schema.createIndex('coin_checks_coin').on('coin_checks').columns(['coin_id', 'id']).execute();
}
