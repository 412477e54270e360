import { operatorLogFilters, operatorLogPage, operatorLogQuery } from '../../shared/schemas/console';
import { operatorProcedure } from '../rpc/trpc';
import { operatorLogFilterChoices, readOperatorLog } from './log-view';

/** `console.log` and `console.log_filters`, spread into the console router. */
export const consoleLogRouter = {
  log: operatorProcedure
    .input(operatorLogQuery)
    .output(operatorLogPage)
    .query(({ ctx, input }) => readOperatorLog(ctx.db, input)),
  log_filters: operatorProcedure.output(operatorLogFilters).query(({ ctx }) => operatorLogFilterChoices(ctx.db)),
};
