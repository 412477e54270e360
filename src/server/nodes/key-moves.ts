import type { DB } from '../db/open';
import { truncateWal, withSecureDelete } from '../db/scrub';
import type { Logger } from '../kernel/log';
import type { SecretBox } from '../secrets/box';
import { finishKeyMove, listKeyMoves } from './key-moves-queries';
import { sealWithMore } from './node-secrets';

/**
 * Seals the masternode keys that migration 2026-11-23T1700 moved out of output_text (a
 * migration has no secrets key; the server has). Runs at every start, right after the
 * migrations; once the table is empty it reads one empty table and returns. Idempotent:
 * each key is sealed into its node's secrets and its row deleted in one transaction, and
 * a key whose node's secrets do not open (a wrong SECRETS_KEY) stays waiting, logged,
 * rather than being sealed over secrets it would destroy.
 */
export async function sealMovedMasternodeKeys(
  db: DB,
  box: Pick<SecretBox, 'seal' | 'open'>,
  log: Pick<Logger, 'info' | 'error' | 'warn'>,
): Promise<number> {
  const moves = await listKeyMoves(db);
  if (!moves.length) return 0;
  let sealed = 0;
  await withSecureDelete(db, async () => {
    for (const m of moves) {
      let next: string | null;
      try {
        next = sealWithMore(box, m, { masternode_key: m.masternode_key });
      } catch (err) {
        log.error('moved masternode key not sealed: the node secrets do not open', {
          node: m.mn_id,
          err: (err as Error).name,
        });
        continue;
      }
      if (next && (await finishKeyMove(db, m.id, m.secrets, next))) sealed += 1;
    }
  });
  // The rows' old page images may still be in the write-ahead log.
  const { busy } = await truncateWal(db);
  if (busy) log.warn('write-ahead log not emptied after sealing masternode keys: another process holds it', {});
  log.info('masternode keys sealed', { count: sealed, waiting: moves.length - sealed });
  return sealed;
}
