import { getMasternodeOutput, getMasternodesOutput, mnQuery } from '../../shared/schemas/nodes';
import { authedProcedure, router } from '../trpc';
import { getMasternode, getMasternodes } from './service';

export const nodesRouter = router({
  get_masternodes: authedProcedure.output(getMasternodesOutput).query(({ ctx }) => getMasternodes(ctx, ctx.user.id)),
  get_masternode: authedProcedure.input(mnQuery).output(getMasternodeOutput).query(({ ctx, input }) => getMasternode(ctx, ctx.user.id, input.masternode)),
});
