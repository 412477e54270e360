import { statusOutput } from '../../shared/schemas/auth';
import { publicProcedure, router } from '../rpc/trpc';
import { isMaintenance } from './settings';

export const systemRouter = router({
  /**
   * Lets a visitor's browser know about maintenance before anyone logs in (open tabs ask
   * again now and then, so they switch to and from the maintenance app), and where
   * customers get help.
   */
  status: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/public_api/status',
        summary:
          "`{success, maintenance, support}`: maintenance flag, and the operator's support address and community links",
      },
    })
    .output(statusOutput)
    .query(async ({ ctx }) => ({
      success: true as const,
      maintenance: await isMaintenance(ctx.db),
      support: { email: ctx.config.supportEmail, community: ctx.config.communityLinks },
    })),
});
