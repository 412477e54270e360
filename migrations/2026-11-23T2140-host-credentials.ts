import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A remote Docker API is root on its host, so a remote host is reached over TLS with a
// client certificate (or over SSH): its CA, certificate and key (and an SSH key) are
// kept sealed with the platform's secret key, in one column, bound to the host's name.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('hosts').addColumn('credentials', 'text').execute();
}
