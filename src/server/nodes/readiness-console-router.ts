import { checkCoinInput, checkCoinOutput, coinReadiness, checkStep } from '../../shared/schemas/console-readiness';
import type { z } from 'zod';
import { listCoins } from '../coins/catalog';
import { offersOf } from '../coins/offer';
import { logOperatorAction } from '../operator/log';
import { operatorProcedure, router } from '../rpc/trpc';
import { newestCoinChecks } from './coin-check-queries';
import { requestCoinCheck } from './coin-checks';
import { listHosts } from './fleet-queries';
import { coinDetails } from '../coins/catalog';
import { simulatorProfileId } from '../fleet/profiles';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The Catalog page's Readiness column: the services `coins check` uses, the check queued as a job. */
export const readinessConsoleRouter = router({
  coins: operatorProcedure.output(coinReadiness).query(async ({ ctx }) => {
    const coins = (await listCoins(ctx.db)).filter((c) => c.delisted === 0);
    const [offers, hosts, checks] = await Promise.all([
      offersOf(ctx.db, coins, ctx.fleet),
      listHosts(ctx.db),
      newestCoinChecks(ctx.db),
    ]);
    return coins.map((c) => {
      const offer = offers.get(c.id)!;
      const last = checks.get(c.id);
      return {
        coin: c.id,
        profile: coinDetails(c).daemon ?? simulatorProfileId(c.family),
        offered: offer.offered,
        missing: offer.offered ? null : offer.missing,
        last_check: last
          ? {
              id: last.id,
              state: last.state,
              host: hosts.find((h) => h.id === last.host_id)?.name ?? null,
              reason: last.reason,
              steps: JSON.parse(last.steps) as Array<z.infer<typeof checkStep>>,
              requested_at: iso(last.requested_at)!,
              checked_at: iso(last.checked_at),
            }
          : null,
      };
    });
  }),
  check: operatorProcedure
    .input(checkCoinInput)
    .output(checkCoinOutput)
    .mutation(async ({ ctx, input }) => {
      const id = await requestCoinCheck(ctx.db, ctx.fleet.profiles, input.coin, input.host ?? null);
      await logOperatorAction(ctx.db, ctx.by, 'coins check', { coin: input.coin, host: input.host ?? null, check: id });
      // Committed: the runner takes it now rather than at its next look.
      void ctx.jobs.poke();
      return { success: true as const, check: id };
    }),
});
