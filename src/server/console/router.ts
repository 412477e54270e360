import { inExecutable } from '../runtime/executable';
import { operatorProcedure, router } from '../rpc/trpc';
import { consoleAccessOutput } from '../../shared/schemas/console';
import { consoleLogRouter } from './log-router';
import { overviewQuery } from './overview-router';
import { consoleSettingsRouter } from './settings-router';
import { customersConsoleRouter } from '../customers/console-router';
import { moneyConsoleRouter } from '../billing/console-router';
import { fleetConsoleRouter } from '../nodes/fleet-console-router';
import { catalogConsoleRouter } from '../coins/console-router';
import { supportConsoleRouter } from '../support/console-router';
import { upgradesConsoleRouter } from '../nodes/upgrades-console-router';
import { imagesConsoleRouter } from '../nodes/images-console-router';
import { readinessConsoleRouter } from '../nodes/readiness-console-router';
import { referralsConsoleRouter } from '../referrals/console-router';

/**
 * The operator console's procedures, all under `console.` and all made with
 * `operatorProcedure` (test/procedure/console-access.test.ts walks this tree and calls
 * each one as a guest, a customer, an API key and an operator without 2FA). A console
 * page's procedures go in their own router, listed here by one line.
 */
export const consoleRouter = router({
  /** The console page asks this first: it answers only an operator with 2FA on. */
  access: operatorProcedure
    .output(consoleAccessOutput)
    .query(({ ctx }) => ({ username: ctx.user.username, maintenance: ctx.maintenance, executable: inExecutable })),
  ...consoleLogRouter,
  overview: overviewQuery,
  settings: consoleSettingsRouter,
  customers: customersConsoleRouter,
  money: moneyConsoleRouter,
  fleet: fleetConsoleRouter,
  catalog: catalogConsoleRouter,
  images: imagesConsoleRouter,
  readiness: readinessConsoleRouter,
  support: supportConsoleRouter,
  upgrades: upgradesConsoleRouter,
  referrals: referralsConsoleRouter,
});
