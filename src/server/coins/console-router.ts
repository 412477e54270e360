import { formatUsdExact, parseUsd } from '../../shared/money';
import { okResponse } from '../../shared/schemas/common';
import {
  catalogFileInput,
  catalogList,
  delistInput,
  importPreview,
  importResult,
  setFlagInput,
  setPriceInput,
} from '../../shared/schemas/console-catalog';
import { operatorProcedure, router } from '../rpc/trpc';
import { applyCatalogImport, delistCoin, previewCatalogImport, setCoinFlag, setCoinPrices } from './operator';
import { listCoins } from './queries';
import { coinsPorts } from './ports';

const ok = { success: true as const };
const micros = (usd: string | undefined) => (usd === undefined ? undefined : parseUsd(usd));

/** The console's Catalog page: the services the CLI's `catalog …` commands call. */
export const catalogConsoleRouter = router({
  coins: operatorProcedure.output(catalogList).query(async ({ ctx }) => {
    const [coins, hosted] = await Promise.all([listCoins(ctx.db), coinsPorts().hostedCounts(ctx.db)]);
    return coins.map((c) => ({
      id: c.id,
      label: c.label,
      ticker: c.ticker,
      family: c.family,
      dedicated_price: formatUsdExact(c.dedicated_price),
      cloud_price: formatUsdExact(c.cloud_price),
      campaign_dedicated_price: formatUsdExact(c.campaign_dedicated_price),
      campaign_cloud_price: formatUsdExact(c.campaign_cloud_price),
      campaign: c.campaign === 1,
      maintenance: c.maintenance === 1,
      delisted: c.delisted === 1,
      cloud: c.cloud === 1,
      hosted: hosted.get(c.id) ?? 0,
    }));
  }),
  set_price: operatorProcedure
    .input(setPriceInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setCoinPrices(ctx.db, ctx.by, input.coin, {
        dedicated: micros(input.dedicated),
        cloud: micros(input.cloud),
        campaignDedicated: micros(input.campaign_dedicated),
        campaignCloud: micros(input.campaign_cloud),
      });
      return ok;
    }),
  set_flag: operatorProcedure
    .input(setFlagInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setCoinFlag(ctx.db, ctx.by, input.coin, input.flag, input.on);
      return ok;
    }),
  delist: operatorProcedure
    .input(delistInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await delistCoin(ctx.db, ctx.by, input.coin);
      return ok;
    }),
  preview_import: operatorProcedure
    .input(catalogFileInput)
    .output(importPreview)
    .mutation(({ ctx, input }) => previewCatalogImport(ctx.db, input.text, input.file_name)),
  import: operatorProcedure
    .input(catalogFileInput)
    .output(importResult)
    .mutation(async ({ ctx, input }) => {
      const r = await applyCatalogImport(ctx.db, ctx.by, input.text, input.file_name);
      return { added: r.added, updated: r.updated };
    }),
});
