import { statusOutput } from '../../shared/schemas/auth';
import { publicProcedure, router } from '../trpc';
import { isMaintenance } from './settings';

export const systemRouter = router({
  /** Lets a visitor's browser know about maintenance before anyone logs in. */
  status: publicProcedure
    .meta({ rest: { method: 'GET', path: '/public_api/status', summary: '`{success, maintenance}`' } })
    .output(statusOutput)
    .query(async ({ ctx }) => ({ success: true as const, maintenance: await isMaintenance(ctx.db) })),
});
