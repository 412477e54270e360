import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A node's start (register_submit, quick_setup) is claimed before its daemon is asked, so
// racing submits reach the daemon once. The claim has its own column, apart from
// started_at (a completed start): a claim left behind by a process that died while the
// daemon was asked expires, instead of leaving the node "already started" forever.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('nodes').addColumn('start_claim_at', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('nodes').dropColumn('start_claim_at').execute();
}
