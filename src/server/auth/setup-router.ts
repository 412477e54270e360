import { setupInput, setupOutput, setupStatusOutput, setupTokenInput } from '../../shared/schemas/setup';
import { publicProcedure, router } from '../rpc/trpc';
import { completeSetup, setupStatus } from './first-run';

/** The first-run page (`/setup/<token>`): tRPC only, no REST route (nothing a script needs). */
export const setupRouter = router({
  // Mutations, not queries: looking at an expired link may make (and print) a new one.
  status: publicProcedure
    .meta({ allowInMaintenance: true })
    .input(setupTokenInput)
    .output(setupStatusOutput)
    .mutation(({ ctx, input }) => setupStatus(ctx, input.token)),
  create_operator: publicProcedure
    .meta({ allowInMaintenance: true })
    .input(setupInput)
    .output(setupOutput)
    .mutation(({ ctx, input }) => completeSetup(ctx, input)),
});
