import { Link, useLocation, useSearchParams } from 'wouter';
import { formatUsdGrouped } from '../../shared/money';
import type { GetStatementOutput } from '../../shared/schemas/billing';
import { trpc } from '../app/trpc';
import { PageHeader } from '../layout/DashboardShell';
import { useSession } from '../session/session';
import { QueryState } from '../ui/QueryState';
import { TableScroll } from '../ui/TableScroll';
import { thisMonth } from './MoneyExports';
import './billing.css';

/** "November 2026" from "2026-11". */
function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A USD number exactly as the ledger has it ("$9.937", "-$0.063"), from its micro-dollars. */
function money(usd: number): string {
  const micros = Math.round(usd * 1_000_000);
  return `${micros < 0 ? '-' : ''}$${formatUsdGrouped(Math.abs(micros))}`;
}

/**
 * /dashboard/billing/statement?month=YYYY-MM: one month of the ledger as a statement
 * (the balance it began with, every line, the balance it ended with), printable: the
 * browser's print leaves out the dashboard around it (billing.css).
 */
export function Statement() {
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const month = params.get('month') ?? thisMonth();
  const statement = trpc.billing.get_statement.useQuery({ month });
  const { user } = useSession();
  return (
    <div className="statement">
      <PageHeader title={`Statement for ${/^\d{4}-\d\d$/.test(month) ? monthName(month) : month}`}>
        {statement.data && (
          <>
            <label className="sr-only" htmlFor="statement-month">
              Month
            </label>
            <select
              id="statement-month"
              className="no-print"
              value={month}
              onChange={(e) => navigate(`/dashboard/billing/statement?month=${e.target.value}`)}
            >
              {statement.data.months.map((m) => (
                <option key={m} value={m}>
                  {monthName(m)}
                </option>
              ))}
            </select>
            <button type="button" className="btn btn-primary btn-sm no-print" onClick={() => window.print()}>
              Print
            </button>
          </>
        )}
      </PageHeader>
      <p className="muted">
        {user ? `${user.username} · ` : ''}Nodekeep account statement, times in UTC.{' '}
        <Link href="/dashboard/billing" className="no-print">
          Back to Billing
        </Link>
      </p>
      <QueryState query={statement} what="The statement" loadingLabel="Loading the statement…">
        {(s) => <StatementBody s={s} />}
      </QueryState>
    </div>
  );
}

function StatementBody({ s }: { s: GetStatementOutput }) {
  const current = s.month === thisMonth();
  return (
    <>
      <dl className="statement-totals card">
        <div>
          <dt>Opening balance</dt>
          <dd data-testid="statement-opening">{money(s.opening)}</dd>
        </div>
        <div>
          <dt>Money in</dt>
          <dd>{money(s.money_in)}</dd>
        </div>
        <div>
          <dt>Money out</dt>
          <dd>{money(-s.money_out)}</dd>
        </div>
        <div>
          <dt>{current ? 'Balance now' : 'Closing balance'}</dt>
          <dd data-testid="statement-closing">{money(s.closing)}</dd>
        </div>
      </dl>
      <section className="card table-card billing-section" aria-labelledby="statement-lines">
        <h2 id="statement-lines">Transactions</h2>
        {s.entries.length === 0 ? (
          <p className="table-empty">No transactions in {monthName(s.month)}.</p>
        ) : (
          <TableScroll>
            <table className="table money-table" aria-labelledby="statement-lines">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Description</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col" className="num">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.entries.map((e, i) => (
                  <tr key={i} data-testid="statement-row">
                    <td className="nowrap">{e.date} UTC</td>
                    <td>{e.description}</td>
                    <td className="num">{money(e.amount)}</td>
                    <td className="num">{money(e.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </>
  );
}
