import { getBalanceOutput, getTransactionsInput, getTransactionsOutput } from '../../shared/schemas/billing';
import { router, scriptProcedure } from '../trpc';
import { getBalance, getTransactions } from './service';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const billingRouter = router({
  get_balance: scriptProcedure
    .meta({ rest: { method: 'GET', path: '/api/get_balance', summary: '`{success, balance, total_masternodes, monthly_cost}`: the balance in USD (cents), the charged nodes and 30 days of their fees' } })
    .output(getBalanceOutput)
    .query(({ ctx }) => getBalance(ctx, ctx.user.id)),
  get_transactions: scriptProcedure
    .meta({ rest: { method: 'GET', path: '/api/get_transactions', summary: '`{success, stripe[{id, amount, time}], pending[{currency_label, confirmations, max_confirmations, amount, date}], transactions[{date, description, amount}], total}`: pending card sessions and deposits, and a page of the history, newest first (`page`, `per_page` up to 100; 20 unless asked)' } })
    .input(getTransactionsInput)
    .output(getTransactionsOutput)
    .query(({ ctx, input }) => getTransactions(ctx, ctx.user.id, input ?? { page: 1, per_page: 20 })),
});
