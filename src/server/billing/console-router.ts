import {
  cardSessionList,
  cardSessionsInput,
  chargeRuns,
  createGiftCodesInput,
  createGiftCodesOutput,
  currencyList,
  debtList,
  depositList,
  depositsInput,
  giftCodeList,
  giftCodeListInput,
  revokeGiftCodesInput,
  revokeGiftCodesOutput,
  setCurrencyInput,
} from '../../shared/schemas/console-money';
import { customerChangeOutput } from '../../shared/schemas/console-customers';
import { operatorProcedure, router } from '../rpc/trpc';
import { cardSessionsList, chargeRunsList, currenciesList, debtsList, depositsList } from './console-money';
import { createGiftCodes, giftCodeList as listCodes, revokeGiftCodes } from './coupons/admin';
import { setDepositCurrencyEnabled } from './crypto/admin';
import { dayStart } from './charge-days';

/** The console's Money page: the services the CLI's `coupons` and `deposits` call. */
export const moneyConsoleRouter = router({
  gift_codes: operatorProcedure
    .input(giftCodeListInput)
    .output(giftCodeList)
    .query(async ({ ctx, input }) => ({ codes: await listCodes(ctx.db, input.batch) })),
  create_gift_codes: operatorProcedure
    .input(createGiftCodesInput)
    .output(createGiftCodesOutput)
    .mutation(async ({ ctx, input }) => {
      // Valid through the given UTC day, as on the command line.
      const b = await createGiftCodes(ctx.db, ctx.by, {
        amount: input.amount,
        count: input.count,
        expiresAt: dayStart(input.expires) + 86_400_000,
      });
      return {
        batch: b.batch,
        codes: b.codes,
        amount_micros: b.amount,
        expires_at: new Date(b.expiresAt).toISOString(),
      };
    }),
  revoke_gift_codes: operatorProcedure
    .input(revokeGiftCodesInput)
    .output(revokeGiftCodesOutput)
    .mutation(async ({ ctx, input }) => ({ revoked: await revokeGiftCodes(ctx.db, ctx.by, input) })),
  card_sessions: operatorProcedure
    .input(cardSessionsInput)
    .output(cardSessionList)
    .query(({ ctx, input }) => cardSessionsList(ctx.db, input.status)),
  debts: operatorProcedure.output(debtList).query(({ ctx }) => debtsList(ctx.db)),
  deposits: operatorProcedure
    .input(depositsInput)
    .output(depositList)
    .query(({ ctx, input }) => depositsList(ctx.db, input.state)),
  currencies: operatorProcedure.output(currencyList).query(({ ctx }) => currenciesList(ctx.db)),
  set_currency: operatorProcedure
    .input(setCurrencyInput)
    .output(customerChangeOutput)
    .mutation(async ({ ctx, input }) => ({
      changed: await setDepositCurrencyEnabled(ctx.db, ctx.by, input.id, input.enabled),
    })),
  charge_runs: operatorProcedure.output(chargeRuns).query(({ ctx }) => chargeRunsList(ctx.db)),
});
