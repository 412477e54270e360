import { consoleOverview as overviewOutput } from '../../shared/schemas/console';
import { operatorProcedure } from '../rpc/trpc';
import { consoleOverview } from './overview';

/** `console.overview`. */
export const overviewQuery = operatorProcedure
  .output(overviewOutput)
  .query(({ ctx }) => consoleOverview(ctx.db, Date.now(), ctx.jobs.failing()));
