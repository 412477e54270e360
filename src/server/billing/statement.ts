import { formatUsdExact, microsToUsd } from '../../shared/money';
import type { GetStatementOutput } from '../../shared/schemas/billing';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { hourOf } from '../notifications/raise';
import { userAccount } from './ledger';
import { accountEntries, balanceBefore, firstEntryAt } from './statement-queries';

const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const monthStart = (month: string) => Date.parse(`${month}-01T00:00:00.000Z`);
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The months with a statement, newest first: from the first ledger line's month (else this one) to this one. */
async function statementMonths(db: DB, userId: number, now: number): Promise<string[]> {
  const first = await firstEntryAt(db, userAccount(userId));
  const out: string[] = [];
  for (let m = monthOf(first ?? now); m <= monthOf(now); m = nextMonth(m)) out.unshift(m);
  return out;
}

/**
 * One month of the user's ledger (UTC): the balance before its first instant, every
 * transfer in it with the balance after each, the totals in and out, and the balance at
 * its end (now, for the month under way). Read from the transfers, never the counters,
 * so a statement of a closed month never changes. A month not begun yet has none.
 */
export async function getStatement(
  db: DB,
  userId: number,
  month: string,
  now = Date.now(),
): Promise<GetStatementOutput> {
  const start = monthStart(month);
  if (start > now) fail('BAD_REQUEST', 'That month has not begun yet: there is no statement for it.', 'month');
  const account = userAccount(userId);
  const [opening, lines, months] = await Promise.all([
    balanceBefore(db, account, start),
    accountEntries(db, account, start, monthStart(nextMonth(month))),
    statementMonths(db, userId, now),
  ]);
  let balance = opening;
  let moneyIn = 0;
  let moneyOut = 0;
  const entries = lines.map((e) => {
    balance += e.signed;
    if (e.signed > 0) moneyIn += e.signed;
    else moneyOut -= e.signed;
    return {
      date: hourOf(e.created_at),
      description: e.description,
      amount: microsToUsd(e.signed),
      balance: microsToUsd(balance),
    };
  });
  return {
    success: true,
    month,
    months,
    opening: microsToUsd(opening),
    money_in: microsToUsd(moneyIn),
    money_out: microsToUsd(moneyOut),
    closing: microsToUsd(balance),
    entries,
  };
}

/** A CSV field: quoted when it holds a separator, a quote or a line break; a leading = + - @ is defused for spreadsheets. */
function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const CSV_HEADER = 'date_utc,description,amount_usd,balance_usd';

/**
 * The user's whole history as CSV, oldest first: the time (UTC, to the second), the line
 * as the history shows it, the amount and the balance after it, each exact from the
 * ledger's integer micro-dollars (never through a float: "-0.063", "10.00").
 */
export async function exportTransactions(db: DB, userId: number, now = Date.now()) {
  const lines = await accountEntries(db, userAccount(userId), 0, Number.MAX_SAFE_INTEGER);
  let balance = 0;
  const rows = lines.map((e) => {
    balance += e.signed;
    const at = new Date(e.created_at).toISOString().slice(0, 19).replace('T', ' ');
    return [at, csvField(e.description), formatUsdExact(e.signed), formatUsdExact(balance)].join(',');
  });
  return {
    success: true as const,
    filename: `nodekeep-transactions-${new Date(now).toISOString().slice(0, 10)}.csv`,
    csv: [CSV_HEADER, ...rows].join('\r\n') + '\r\n',
  };
}
