import { randomUUID } from 'node:crypto';
import { formatUsdExact, parseUsd } from '../../../shared/money';
import type { CliCommand } from '../../cli/types';
import { parseFlags, UsageError } from '../../cli/types';
import { logOperatorAction } from '../../operator/log';
import { giftCodeHash, giftCodeHint, newGiftCode, normalizeGiftCode } from './codes';
import { insertGiftCodes, listGiftCodes } from './queries';

const MAX_COUNT = 1000;
const MAX_AMOUNT = 10_000_000_000; // $10,000 in micro-dollars

/** "2027-01-31" (valid through that UTC day) or a full ISO time; epoch ms of the end. */
function parseExpiry(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== text) throw new UsageError(`--expires: no such date ${text}`);
    return start + 86_400_000;
  }
  const t = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(t)) throw new UsageError('--expires takes a date such as 2027-01-31 (valid through that UTC day) or an ISO time');
  return t;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export const couponCommands: Record<string, CliCommand> = {
  'coupons create': {
    usage: 'coupons create --amount <usd> --count <n> --expires <YYYY-MM-DD>',
    summary: 'make single-use gift codes (each code is printed once, never stored)',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['amount', 'count', 'expires']);
      if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}`);
      if (!flags.amount || !flags.count || !flags.expires) throw new UsageError('--amount, --count and --expires are required');
      let amount: number;
      try {
        amount = parseUsd(flags.amount);
      } catch (err) {
        throw new UsageError(`--amount: ${(err as Error).message}`);
      }
      if (amount <= 0 || amount > MAX_AMOUNT) throw new UsageError('--amount must be more than 0 and at most 10000');
      if (!/^\d+$/.test(flags.count) || Number(flags.count) < 1 || Number(flags.count) > MAX_COUNT) throw new UsageError(`--count must be a whole number from 1 to ${MAX_COUNT}`);
      const count = Number(flags.count);
      const expiresAt = parseExpiry(flags.expires);
      if (expiresAt <= Date.now()) throw new UsageError('--expires must be in the future');
      const batch = randomUUID().slice(0, 8);
      const codes = Array.from({ length: count }, newGiftCode);
      await db.transaction().execute(async (trx) => {
        await insertGiftCodes(
          trx,
          codes.map((c) => {
            const n = normalizeGiftCode(c);
            return { code_hash: giftCodeHash(n), hint: giftCodeHint(n), amount, expires_at: expiresAt, batch };
          }),
        );
        await logOperatorAction(trx, io.by, 'coupons create', { batch, count, amount, expires_at: expiresAt });
      });
      io.out(`${count} gift code${count === 1 ? '' : 's'} of $${formatUsdExact(amount)}, valid until ${day(expiresAt)} UTC (batch ${batch}). They are shown only now:`);
      for (const c of codes) io.out(c);
    },
  },
  'coupons list': {
    usage: 'coupons list',
    summary: 'gift codes (last four characters), amount, expiry and who redeemed them',
    async run(db, args, io) {
      if (args.length) throw new UsageError('coupons list takes no arguments');
      const rows = await listGiftCodes(db);
      if (!rows.length) return io.out('no gift codes');
      const now = Date.now();
      for (const r of rows) {
        const state = r.redeemed_at !== null ? `redeemed by ${r.username ?? '(deleted user)'} at ${day(r.redeemed_at)}` : r.expires_at <= now ? 'expired' : 'unused';
        io.out(`#${r.id} …${r.hint} $${formatUsdExact(r.amount)} expires ${day(r.expires_at)} batch ${r.batch}: ${state}`);
      }
    },
  },
};
