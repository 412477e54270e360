import { randomUUID } from 'node:crypto';
import { formatUsdExact, parseUsd } from '../../shared/money';
import { findUserByLogin } from '../auth/queries';
import type { CliCommand } from '../cli/types';
import { parseFlags, UsageError } from '../cli/types';
import { logOperatorAction } from '../operator/log';
import { accountBalance, InsufficientFunds, PLATFORM, postTransfer, userAccount } from './ledger';
import { findTransferByKey } from './queries';

export const billingCommands: Record<string, CliCommand> = {
  'billing adjust': {
    usage: 'billing adjust <username|email> <+/-usd> --reason <text> [--key <idempotency key>]',
    summary: "credit (+) or debit (-) a user's balance as a ledger transfer",
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['reason', 'key']);
      if (positional.length !== 2) throw new UsageError('billing adjust takes a user and an amount');
      if (!flags.reason?.trim()) throw new UsageError('--reason is required (it is shown to the user)');
      let amount: number;
      try {
        amount = parseUsd(positional[1]);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (amount === 0) throw new UsageError('amount must not be zero');
      const user = await findUserByLogin(db, positional[0]);
      if (!user) throw new UsageError(`no user "${positional[0]}"`);
      // The operator's keys live apart from the server's (`card:…`, `crypto:…`, `coupon:…`):
      // a typed `--key card:cs_…` must not take the key a card payment's credit is written under.
      const key = `operator-adjust:${flags.key ?? randomUUID()}`;
      const credit = amount > 0;
      const debit = credit ? PLATFORM.adjustments : userAccount(user.id);
      const creditTo = credit ? userAccount(user.id) : PLATFORM.adjustments;
      try {
        const posted = await db.transaction().execute(async (trx) => {
          const done = await postTransfer(trx, { idempotencyKey: key, debit, credit: creditTo, amount: Math.abs(amount), kind: 'adjustment', description: flags.reason.trim() });
          if (!done) {
            // A rerun must be the same adjustment: a key reused for another one would be "applied" without being so.
            const earlier = await findTransferByKey(trx, key);
            if (earlier && (earlier.debit_account !== debit || earlier.credit_account !== creditTo || earlier.amount !== Math.abs(amount))) {
              throw new UsageError(`key ${flags.key} was used for another adjustment (${earlier.debit_account} -> ${earlier.credit_account}, $${formatUsdExact(earlier.amount)}); nothing was written`);
            }
            return false;
          }
          await logOperatorAction(trx, io.by, 'billing adjust', { user_id: user.id, amount, key });
          return true;
        });
        const balance = await accountBalance(db, userAccount(user.id));
        io.out(posted ? `${user.username}: ${credit ? 'credited' : 'debited'} $${formatUsdExact(Math.abs(amount))}, balance $${formatUsdExact(balance)}` : `already applied (key ${flags.key}); balance $${formatUsdExact(balance)}`);
      } catch (err) {
        if (err instanceof InsufficientFunds) throw new UsageError(`${user.username}'s balance is lower than the debit`);
        throw err;
      }
    },
  },
};
