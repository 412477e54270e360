import { randomUUID } from 'node:crypto';
import { formatUsdExact, parseUsd } from '../../shared/money';
import { findUserByLogin } from '../auth/users';
import type { CliCommand } from '../db/cli-command';
import { parseFlags, UsageError } from '../kernel/cli';
import { terminalField as f } from '../kernel/terminal';
import { fail } from '../kernel/errors';
import { adjustBalance } from './adjust';

export const billingCommands: Record<string, CliCommand> = {
  'billing adjust': {
    usage: 'billing adjust <username|email> <+/-usd> --reason <text> [--key <idempotency key>]',
    summary:
      "credit (+) or debit (-) a user's balance as a ledger transfer (the console's Customers page does the same)",
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
      if (!user) fail('NOT_FOUND', `no user "${positional[0]}"`);
      const key = flags.key ?? randomUUID();
      // A refused adjustment (a debit beyond the balance, a reused key) is the rule's
      // message and exit 1, not a mistake in the command line.
      const r = await adjustBalance(db, io.by, { userId: user.id, amount, reason: flags.reason, key });
      io.out(
        r.applied
          ? `${f(r.username)}: ${amount > 0 ? 'credited' : 'debited'} $${formatUsdExact(Math.abs(amount))}, balance $${formatUsdExact(r.balance)}`
          : `already applied (key ${key}); balance $${formatUsdExact(r.balance)}`,
      );
    },
  },
};
