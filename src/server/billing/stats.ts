/** Money figures for the console overview and the business metrics (SQL stays in billing's queries files). */
export { openDebtTotals, pendingDepositTotals, revenueByDay } from './queries';
export { depositCount } from './crypto/queries';
export {
  customerBalancesTotal,
  lastTransferId,
  nonUserBalances,
  transfersOfKind,
  transfersOfKindAfter,
} from './stats-queries';
