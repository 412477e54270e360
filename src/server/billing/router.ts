import {
  cancelStripeInput,
  creditCardInput,
  creditCardOutput,
  generateWalletInput,
  generateWalletOutput,
  getAltPaymentsOutput,
  getBalanceOutput,
  getTransactionsInput,
  getTransactionsOutput,
  exportTransactionsOutput,
  getStatementInput,
  getStatementOutput,
  redeemCouponInput,
  resumeStripeInput,
  resumeStripeOutput,
} from '../../shared/schemas/billing';
import { messageResponse } from '../../shared/schemas/common';
import { authedProcedure, router, scriptProcedure } from '../rpc/trpc';
import { cancelCardSession, openCardSession, resumeCardSession } from './card/service';
import { redeemGiftCode } from './coupons/service';
import { generateWallet, getAltPayments } from './crypto/service';
import { getBalance, getTransactions } from './service';
import { exportTransactions, getStatement } from './statement';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const billingRouter = router({
  get_balance: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_balance',
        summary:
          '`{success, balance, total_masternodes, monthly_cost, daily_cost, runway_hours, at_risk[{mn_id, name}], keep}`: the balance in USD (cents), the charged nodes and 30 days of their fees; their fees per day, the whole hours the balance pays them (null with no fees), and when the balance does not cover the next 00:00 UTC charge, the nodes it would destroy and the USD that keeps them all',
      },
    })
    .output(getBalanceOutput)
    .query(({ ctx }) => getBalance(ctx, ctx.user.id)),
  get_transactions: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_transactions',
        summary:
          '`{success, stripe[{id, amount, time}], pending[{currency_label, confirmations, max_confirmations, amount, date}], transactions[{date, description, amount}], total}`: pending card sessions and deposits, and a page of the history, newest first (`page`, `per_page` up to 100; 20 unless asked)',
      },
    })
    .input(getTransactionsInput)
    .output(getTransactionsOutput)
    .query(({ ctx, input }) => getTransactions(ctx, ctx.user.id, input ?? { page: 1, per_page: 20 })),
  export_transactions: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/export_transactions',
        summary:
          'The whole history as a CSV file (`date_utc,description,amount_usd,balance_usd`, oldest first, exact amounts); over tRPC `{success, filename, csv}`',
        csv: true,
      },
    })
    .output(exportTransactionsOutput)
    .query(({ ctx }) => exportTransactions(ctx.db, ctx.user.id)),
  get_statement: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_statement',
        summary:
          '`{success, month, months[], opening, money_in, money_out, closing, entries[{date, description, amount, balance}]}`: `month` (YYYY-MM, UTC) of the ledger: the balance it began with, every line with the balance after it, and the balance it ended with (now, for this month); `months`: those with a statement, newest first',
      },
    })
    .input(getStatementInput)
    .output(getStatementOutput)
    .query(({ ctx, input }) => getStatement(ctx.db, ctx.user.id, input.month)),
  credit_card: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/credit_card',
        summary:
          '`{success, message, session, url}`: `{amount, idempotency_key?}` (USD, at least 5, two decimals at most) opens a card payment; go to `url` to pay. The balance is credited when the payment provider confirms it',
      },
    })
    .input(creditCardInput)
    .output(creditCardOutput)
    .mutation(({ ctx, input }) => openCardSession(ctx, ctx.user.id, input)),
  resume_stripe: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/resume_stripe',
        summary: '`{success, url}`: `{session_id}` of a pending card payment; go to `url` to finish paying',
      },
    })
    .input(resumeStripeInput)
    .output(resumeStripeOutput)
    .mutation(({ ctx, input }) => resumeCardSession(ctx, ctx.user.id, input.session_id)),
  cancel_stripe: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cancel_stripe',
        summary: '`{success, message}`: `{session_id}` cancels a pending card payment',
      },
    })
    .input(cancelStripeInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => cancelCardSession(ctx, ctx.user.id, input.session_id)),
  redeem_coupon: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/redeem_coupon',
        summary: "`{success, message}`: `{code}` adds a gift code's amount to the balance (single use)",
      },
    })
    .input(redeemCouponInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => redeemGiftCode(ctx, ctx.user.id, input.code)),
  get_alt_payments: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_alt_payments',
        summary:
          "`{success, currencies[{id, label, ticker, icon_id?, address, max_confirmations}]}`: the accepted deposit currencies, preferred coins first; `address` is the caller's own, empty until generated",
      },
    })
    .output(getAltPaymentsOutput)
    .query(async ({ ctx }) => ({ success: true as const, currencies: await getAltPayments(ctx, ctx.user.id) })),
  generate_wallet: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/generate_wallet',
        summary:
          "`{success, address}`: `{currency}`; the caller's deposit address for the currency, made once and the same after",
      },
    })
    .input(generateWalletInput)
    .output(generateWalletOutput)
    .mutation(async ({ ctx, input }) => ({
      success: true as const,
      address: await generateWallet(ctx, ctx.user.id, input.currency),
    })),
});
