/** A user's ledger transfers, for the domains above billing (SQL stays in billing/queries.ts). */
export { firstDepositTransferId, referralEarnings, transfersOfAccountSql, userTransfers } from './queries';
