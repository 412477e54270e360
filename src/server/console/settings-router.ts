import { okResponse } from '../../shared/schemas/common';
import { platformSettings, setBannerInput, setMaintenanceInput, setSignupInput } from '../../shared/schemas/console';
import { platformSettings as readSettings, setBanner, setMaintenance, setSignupOpen } from '../operator/platform';
import { operatorProcedure, router } from '../rpc/trpc';

/** The console's Settings page: the same services the CLI's `maintenance` and `signup` call. */
export const consoleSettingsRouter = router({
  get: operatorProcedure.output(platformSettings).query(({ ctx }) => readSettings(ctx.db)),
  set_maintenance: operatorProcedure
    .input(setMaintenanceInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setMaintenance(ctx.db, ctx.by, input.on);
      return { success: true as const };
    }),
  set_banner: operatorProcedure
    .input(setBannerInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setBanner(ctx.db, ctx.by, input.banner);
      return { success: true as const };
    }),
  set_signup: operatorProcedure
    .input(setSignupInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setSignupOpen(ctx.db, ctx.by, input.open);
      return { success: true as const };
    }),
});
