import { okResponse } from '../../shared/schemas/common';
import {
  rolloutActionInput,
  rolloutDetail as rolloutDetailOutput,
  rolloutIdInput,
  rolloutStartInput,
  rolloutStartOutput,
  upgradesPage,
} from '../../shared/schemas/console-upgrades';
import { operatorProcedure, router } from '../rpc/trpc';
import { changeRollout, rolloutDetail, startRollout, upgradesOverview } from './rollouts';

/** The console's Upgrades page: the service the CLI's `fleet upgrade` calls. */
export const upgradesConsoleRouter = router({
  overview: operatorProcedure.output(upgradesPage).query(({ ctx }) => upgradesOverview(ctx.db, ctx.fleet)),
  rollout: operatorProcedure
    .input(rolloutIdInput)
    .output(rolloutDetailOutput)
    .query(({ ctx, input }) => rolloutDetail(ctx.db, input.id)),
  start: operatorProcedure
    .input(rolloutStartInput)
    .output(rolloutStartOutput)
    .mutation(({ ctx, input }) =>
      startRollout(ctx.db, ctx.fleet, ctx.by, {
        coinId: input.coin_id,
        version: input.version,
        batchSize: input.batch_size,
      }),
    ),
  change: operatorProcedure
    .input(rolloutActionInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await changeRollout(ctx.db, ctx.by, input.id, input.action);
      return { success: true as const };
    }),
});
