import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A classic (and SIN) node's masternode key was written in plaintext as word 2 of its
// output_text ("mn1 {address} <key> <txid> <index> [<burn>]"). It belongs sealed in
// nodes.secrets, but a migration has no secrets key (the key is not in the database, and
// the CLI migrates without it). So this migration only moves each key out of output_text
// (its slot becomes "-") into masternode_key_moves; the server seals every row there at
// start-up, once, and deletes it (src/server/nodes/key-moves.ts). secure_delete makes
// SQLite zero the bytes the old texts leave behind instead of keeping them in free space.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('masternode_key_moves')
    .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
    .addColumn('masternode_key', 'text', (c) => c.notNull())
    .execute();

  const prior = (await sql<{ secure_delete: number }>`PRAGMA secure_delete`.execute(db)).rows[0]?.secure_delete ?? 0;
  await sql`PRAGMA secure_delete = ON`.execute(db);
  try {
    // Migrations run in one transaction of their own now (src/server/db/fifo-driver.ts);
    // databases migrated before that ran this one alone.
    const inOne = (run: (trx: Kysely<any>) => Promise<void>) =>
      db.isTransaction ? run(db) : db.transaction().execute(run);
    await inOne(async (trx) => {
      const rows = await trx
        .selectFrom('nodes')
        .innerJoin('coins', 'coins.id', 'nodes.coin_id')
        .select(['nodes.id as id', 'nodes.output_text as output_text'])
        .where('coins.family', 'in', ['classic', 'sin'])
        .where('nodes.output_text', 'is not', null)
        .execute();
      for (const r of rows as Array<{ id: number; output_text: string }>) {
        const words = r.output_text.trim().split(/\s+/);
        // The masternode.conf layout has at least 5 words; "-" is an empty slot.
        if (words.length < 5 || words[2] === '-') continue;
        await trx
          .insertInto('masternode_key_moves')
          .values({ node_id: r.id, masternode_key: words[2] })
          .onConflict((oc) => oc.column('node_id').doNothing())
          .execute();
        words[2] = '-';
        await trx
          .updateTable('nodes')
          .set({ output_text: words.join(' ') })
          .where('id', '=', r.id)
          .execute();
      }
    });
  } finally {
    await sql.raw(`PRAGMA secure_delete = ${Number(prior) ? 'ON' : 'OFF'}`).execute(db);
  }
}
