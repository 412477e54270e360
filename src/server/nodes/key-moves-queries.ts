import type { DB } from '../db/open';

/** The masternode keys a migration moved out of output_text, waiting to be sealed (key-moves.ts). */
export function listKeyMoves(db: DB) {
  return db
    .selectFrom('masternode_key_moves')
    .innerJoin('nodes', 'nodes.id', 'masternode_key_moves.node_id')
    .select([
      'nodes.id as id',
      'nodes.mn_id as mn_id',
      'nodes.secrets as secrets',
      'masternode_key_moves.masternode_key as masternode_key',
    ])
    .orderBy('nodes.id')
    .execute();
}

/**
 * Stores the node's new sealed secrets and drops its moved key, together. Only when the
 * secrets are still those the new value was sealed over (nothing rewrote them meanwhile).
 */
export async function finishKeyMove(db: DB, nodeId: number, before: string | null, sealed: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const q = trx.updateTable('nodes').set({ secrets: sealed }).where('id', '=', nodeId);
    const r = await (
      before === null ? q.where('secrets', 'is', null) : q.where('secrets', '=', before)
    ).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom('masternode_key_moves').where('node_id', '=', nodeId).execute();
    return true;
  });
}
