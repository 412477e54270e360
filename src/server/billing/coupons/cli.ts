import { expiryText } from '../../../shared/format';
import { formatUsdExact, parseUsd } from '../../../shared/money';
import type { CliCommand } from '../../db/cli-command';
import { asUsage, parseFlags, UsageError } from '../../kernel/cli';
import { terminalField as f } from '../../kernel/terminal';
import { createGiftCodes, giftCodeList, revokeGiftCodes } from './admin';

/** "2027-01-31" (valid through that UTC day) or a full ISO time; epoch ms of the end. */
export function parseExpiry(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== text)
      throw new UsageError(`--expires: no such date ${text}`);
    return start + 86_400_000;
  }
  const t = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(t))
    throw new UsageError('--expires takes a date such as 2027-01-31 (valid through that UTC day) or an ISO time');
  return t;
}

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export const couponCommands: Record<string, CliCommand> = {
  'coupons create': {
    usage: 'coupons create --amount <usd> --count <n> --expires <YYYY-MM-DD>',
    summary: 'make single-use gift codes (each code is printed once, never stored)',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['amount', 'count', 'expires']);
      if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}`);
      if (!flags.amount || !flags.count || !flags.expires)
        throw new UsageError('--amount, --count and --expires are required');
      let amount: number;
      try {
        amount = parseUsd(flags.amount);
      } catch (err) {
        throw new UsageError(`--amount: ${(err as Error).message}`);
      }
      if (!/^\d+$/.test(flags.count)) throw new UsageError('--count must be a whole number from 1 to 1000');
      const expiresAt = parseExpiry(flags.expires);
      const b = await asUsage(() => createGiftCodes(db, io.by, { amount, count: Number(flags.count), expiresAt }));
      const n = b.codes.length;
      io.out(
        `${n} gift code${n === 1 ? '' : 's'} of $${formatUsdExact(b.amount)}, valid ${expiryText(b.expiresAt)} (batch ${b.batch}). They are shown only now:`,
      );
      for (const c of b.codes) io.out(c);
    },
  },
  'coupons list': {
    usage: 'coupons list [--batch <batch>]',
    summary: 'gift codes (last four characters), amount, expiry and who redeemed them',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['batch']);
      if (positional.length) throw new UsageError('coupons list takes no arguments');
      const rows = await giftCodeList(db, flags.batch);
      if (!rows.length) return io.out('no gift codes');
      for (const r of rows) {
        const state =
          r.state === 'redeemed'
            ? `redeemed by ${f(r.redeemed_by)} at ${minute(r.redeemed_at!)}`
            : r.state === 'revoked'
              ? `revoked at ${minute(r.revoked_at!)}`
              : r.state;
        io.out(
          `#${r.id} …${r.hint} $${formatUsdExact(r.amount_micros)} valid ${expiryText(r.expires_at)} batch ${r.batch}: ${state}`,
        );
      }
    },
  },
  'coupons revoke': {
    usage: 'coupons revoke <id>... | coupons revoke --batch <batch>',
    summary: 'revoke unused gift codes (by id, or every unused one of a batch): they can no longer be redeemed',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['batch']);
      if (flags.batch !== undefined && positional.length) throw new UsageError('give ids or --batch, not both');
      if (flags.batch === undefined && !positional.length)
        throw new UsageError('give the ids of the codes (from coupons list) or --batch');
      const ids = positional.map((p) => {
        const m = /^#?(\d{1,12})$/.exec(p);
        if (!m) throw new UsageError(`not a gift code id: ${p}`);
        return Number(m[1]);
      });
      const n = await revokeGiftCodes(db, io.by, flags.batch !== undefined ? { batch: flags.batch } : { ids });
      io.out(n ? `${n} gift code${n === 1 ? '' : 's'} revoked` : 'nothing to revoke (already revoked)');
    },
  },
};
