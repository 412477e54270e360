import { coinQuery, deployInfoOutput, detailedOutput, getCoinOutput, getCoinsOutput, statsOutput } from '../../shared/schemas/coins';
import { authedProcedure, publicProcedure, router } from '../trpc';
import { getCoin, getCoins, getDeployInfo, getDetailed, getStats } from './service';

export const coinsRouter = router({
  get_coins: publicProcedure.output(getCoinsOutput).query(({ ctx }) => getCoins(ctx)),
  get_coin: publicProcedure.input(coinQuery).output(getCoinOutput).query(({ ctx, input }) => getCoin(ctx, input.coin)),
  get_stats: publicProcedure.output(statsOutput).query(({ ctx }) => getStats(ctx)),
  get_detailed: publicProcedure.output(detailedOutput).query(({ ctx }) => getDetailed(ctx)),
  get_deploy_info: authedProcedure.input(coinQuery).output(deployInfoOutput).query(({ ctx, input }) => getDeployInfo(ctx, input.coin)),
});
