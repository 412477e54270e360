import { coinQuery, detailedOutput, getCoinOutput, getCoinsOutput, statsOutput } from '../../shared/schemas/coins';
import { publicProcedure, router, scriptProcedure } from '../rpc/trpc';
import { getCoin, getCoins, getDetailed, getStats } from './service';

export const coinsRouter = router({
  get_coins: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/public_api/get_coins',
        cacheMs: 1000,
        summary:
          '`{order, data, market_provider, market_updated_at}`: `order` = coin ids (hosted nodes first), `data` = rows keyed by id',
      },
    })
    .output(getCoinsOutput)
    .query(({ ctx }) => getCoins(ctx)),
  get_coin: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/public_api/get_coin',
        cacheMs: 1000,
        summary: '`{success, data}`: the coin detail; 404 for an unknown coin',
      },
    })
    .input(coinQuery)
    .output(getCoinOutput)
    .query(({ ctx, input }) => getCoin(ctx, input.coin)),
  get_stats: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/public_api/get_stats',
        cacheMs: 1000,
        summary: '`{success, data: {total_mns, total_mn_value, supported_mns}}`',
      },
    })
    .output(statsOutput)
    .query(({ ctx }) => getStats(ctx)),
  get_detailed: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/public_api/get_detailed',
        cacheMs: 1000,
        summary: '`{success, market_provider, data: [...]}`: the full market table',
      },
    })
    .output(detailedOutput)
    .query(({ ctx }) => getDetailed(ctx)),
});
