import type { z } from 'zod';
import type { removedValidatorsOutput, slashingProtectionFileOutput } from '../../shared/schemas/nodes';
import { listCoins } from '../coins/catalog';
import { fail } from '../kernel/errors';
import type { Context } from '../rpc/context';
import { findExitFile, listExitFiles } from './exit-files';

type Ctx = Pick<Context, 'db'>;

export const NO_EXIT_FILE = 'No slashing-protection file is kept for this node.';

/** The owner's destroyed validators whose slashing-protection files are kept (30 days). */
export async function removedValidators(ctx: Ctx, userId: number): Promise<z.infer<typeof removedValidatorsOutput>> {
  const [files, coins] = await Promise.all([listExitFiles(ctx.db, userId), listCoins(ctx.db)]);
  const label = new Map(coins.map((c) => [c.id, c.label]));
  return {
    success: true,
    data: files.map((f) => ({
      mn_id: f.mn_id,
      coin: f.coin_id,
      coin_label: label.get(f.coin_id) ?? f.coin_id,
      alias: f.alias,
      reason: f.reason,
      removed_at: f.created_at,
      kept_until: f.expires_at,
      file_name: f.file_name,
    })),
  };
}

/** One kept file; anyone else's, an unknown or an expired one answers the same "not found". */
export async function slashingProtectionFile(
  ctx: Ctx,
  userId: number,
  mnId: string,
): Promise<z.infer<typeof slashingProtectionFileOutput>> {
  const f = await findExitFile(ctx.db, userId, mnId);
  if (!f) fail('NOT_FOUND', NO_EXIT_FILE);
  return { success: true, ...f };
}
