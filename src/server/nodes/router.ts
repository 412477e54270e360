import { getMasternodeOutput, getMasternodesOutput, mnQuery } from '../../shared/schemas/nodes';
import { router, scriptProcedure } from '../trpc';
import { getMasternode, getMasternodes } from './service';

export const nodesRouter = router({
  get_masternodes: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_masternodes',
        summary: "`{masternodes[], queue[], total_worth, monthly_cost}`: the user's nodes, build-queue items, total worth and monthly hosting cost in USD",
      },
    })
    .output(getMasternodesOutput)
    .query(({ ctx }) => getMasternodes(ctx, ctx.user.id)),
  get_masternode: scriptProcedure
    .meta({ rest: { method: 'GET', path: '/api/get_masternode', summary: '`{success, data}`: one node; another user\'s node answers 404 "Masternode not found."' } })
    .input(mnQuery)
    .output(getMasternodeOutput)
    .query(({ ctx, input }) => getMasternode(ctx, ctx.user.id, input.masternode)),
});
