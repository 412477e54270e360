import {
  adjustBalanceInput,
  adjustBalanceOutput,
  customerChangeOutput,
  customerIdInput,
  customerLedger as customerLedgerOutput,
  customerLedgerInput,
  customerProfile as customerProfileOutput,
  customerSearchInput,
  customerSearchOutput,
  resetTfaInput,
} from '../../shared/schemas/console-customers';
import { messageResponse } from '../../shared/schemas/common';
import { disableUser, enableUser, resendVerificationFor, resetUserTfa } from '../auth/operator-actions';
import { adjustBalance } from '../billing/adjust';
import { afterRaise } from '../notifications/raise';
import { operatorProcedure, router } from '../rpc/trpc';
import { customerLedger, customerProfile, newestCustomers, searchCustomers } from './service';

/** The console's Customers page: the services the CLI's `users` and `billing adjust` call. */
export const customersConsoleRouter = router({
  search: operatorProcedure
    .input(customerSearchInput)
    .output(customerSearchOutput)
    .query(({ ctx, input }) => searchCustomers(ctx.db, input.q)),
  newest: operatorProcedure.output(customerSearchOutput).query(({ ctx }) => newestCustomers(ctx.db)),
  get: operatorProcedure
    .input(customerIdInput)
    .output(customerProfileOutput)
    .query(({ ctx, input }) => customerProfile(ctx.db, input.id)),
  ledger: operatorProcedure
    .input(customerLedgerInput)
    .output(customerLedgerOutput)
    .query(({ ctx, input }) => customerLedger(ctx.db, input.id, input.page, input.per_page)),
  adjust_balance: operatorProcedure
    .input(adjustBalanceInput)
    .output(adjustBalanceOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await adjustBalance(ctx.db, ctx.by, {
        userId: input.id,
        amount: input.amount,
        reason: input.reason,
        key: input.key,
      });
      if (r.applied) void ctx.hub.poke();
      return { applied: r.applied, balance_micros: r.balance };
    }),
  disable: operatorProcedure
    .input(customerIdInput)
    .output(customerChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const changed = await disableUser(ctx.db, ctx.by, input.id);
      if (changed) void ctx.hub.poke();
      return { changed };
    }),
  enable: operatorProcedure
    .input(customerIdInput)
    .output(customerChangeOutput)
    .mutation(async ({ ctx, input }) => ({ changed: await enableUser(ctx.db, ctx.by, input.id) })),
  reset_2fa: operatorProcedure
    .input(resetTfaInput)
    .output(customerChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const changed = await resetUserTfa(ctx.db, ctx.by, input.id, input.identity_check);
      afterRaise(ctx);
      return { changed };
    }),
  resend_verification: operatorProcedure
    .input(customerIdInput)
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      const { email } = await resendVerificationFor(ctx.db, ctx.by, ctx.config.publicUrl, input.id);
      void ctx.mail.kick();
      return { success: true as const, message: `A new verification link was sent to ${email}.` };
    }),
});
