import type { ConsoleOverview } from '../../shared/schemas/console';
import { counted } from '../../shared/english';
import { trpc } from '../app/trpc';
import { Link } from 'wouter';
import { Alert } from '../ui/Alert';
import { QueryState } from '../ui/QueryState';
import { age, usd, utc } from './format';
import { TrendChart } from './TrendChart';

/** Nodes by status and coin, deploys, slots, monitor, money and mail at a glance; refreshed every 30 s. */
export function Overview() {
  const overview = trpc.console.overview.useQuery(undefined, { refetchInterval: 30_000 });
  return (
    <QueryState query={overview} what="The overview">
      {(o) => <OverviewBody o={o} />}
    </QueryState>
  );
}

function sumBy<T>(rows: T[], key: (r: T) => string, n: (r: T) => number): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + n(r));
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function OverviewBody({ o }: { o: ConsoleOverview }) {
  const byStatus = sumBy(
    o.nodes,
    (n) => n.status,
    (n) => n.count,
  );
  const byCoin = sumBy(
    o.nodes,
    (n) => n.coin_id,
    (n) => n.count,
  );
  const days = o.history.map((h) => h.day);
  return (
    <div className="console-overview">
      <NeedsYou a={o.attention} />
      {o.daily_charge_late && (
        <Alert kind="error">
          <strong>Daily charge late.</strong> The {o.daily_charge_late}: no node is charged until it completes, and
          every later day waits for it. The server log says why.
        </Alert>
      )}
      {o.failing_jobs.length > 0 && (
        <Alert kind="error">
          <strong>Background jobs failing.</strong>
          <ul className="console-failing-jobs" aria-label="Failing jobs">
            {o.failing_jobs.map((j) => (
              <li key={j.name}>
                <code>{j.name}</code>: {j.failures} {j.failures === 1 ? 'run' : 'runs in a row'} failed since{' '}
                {utc(j.since)}. Last error: {j.last_error}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      <section className="console-cards" aria-label="Key figures">
        <Card label="Revenue today" value={usd(o.revenue.today_micros)} />
        <Card label="Revenue this month" value={usd(o.revenue.month_micros)} />
        <Card
          label="Deploys, last 24 h"
          value={String(o.deploys_24h.total)}
          note={`${o.deploys_24h.failed} failed`}
          warn={o.deploys_24h.failed > 0}
        />
        <Card
          label="Deposits pending"
          value={String(o.deposits_pending.count)}
          note={usd(o.deposits_pending.usd_micros)}
        />
        <Card
          label="Mail backlog"
          value={String(o.mail.pending)}
          note={`${o.mail.failed} failed${o.mail.oldest_pending_at ? `, oldest ${utc(o.mail.oldest_pending_at)}` : ''}`}
          warn={o.mail.failed > 0}
        />
        <Card
          label="Monitor lag"
          value={o.monitor.lag_seconds === null ? '--' : age(o.monitor.lag_seconds)}
          note={`${counted(o.monitor.live, 'live node')}, ${o.monitor.unchecked} not checked yet`}
        />
      </section>

      <section className="console-charts" aria-label="Last 30 days">
        <TrendChart
          label="Hosted nodes"
          days={days}
          values={o.history.map((h) => h.hosted)}
          format={(n) => String(n)}
        />
        <TrendChart label="Revenue per day" days={days} values={o.history.map((h) => h.revenue_micros)} format={usd} />
      </section>

      <div className="console-columns">
        <section>
          <h2>Nodes by status</h2>
          <CountTable head="Status" rows={byStatus} />
        </section>
        <section>
          <h2>Nodes by coin</h2>
          <CountTable head="Coin" rows={byCoin} />
        </section>
      </div>

      <section>
        <h2>Hosts</h2>
        <table className="console-table">
          <thead>
            <tr>
              <th>Host</th>
              <th>Engine</th>
              <th>State</th>
              <th>Dedicated used / free</th>
              <th>Cloud used / free</th>
            </tr>
          </thead>
          <tbody>
            {o.hosts.map((h) => (
              <tr key={h.id}>
                <td>{h.name}</td>
                <td>{h.engine}</td>
                <td>{h.state}</td>
                <td>
                  {h.dedicated.used} / {h.dedicated.free}
                </td>
                <td>
                  {h.cloud.used} / {h.cloud.free}
                </td>
              </tr>
            ))}
            {o.hosts.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No hosts yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <p className="muted">
          Waiting for a host: {o.unplaced.dedicated} dedicated, {o.unplaced.cloud} cloud. As of {utc(o.at)}.
        </p>
      </section>
    </div>
  );
}

function Card({ label, value, note, warn = false }: { label: string; value: string; note?: string; warn?: boolean }) {
  return (
    <div className={`console-card${warn ? ' console-card-warn' : ''}`}>
      <div className="muted">{label}</div>
      <div className="console-card-value">{value}</div>
      {note && <div className="muted console-card-note">{note}</div>}
    </div>
  );
}

function CountTable({ head, rows }: { head: string; rows: Array<[string, number]> }) {
  return (
    <table className="console-table">
      <thead>
        <tr>
          <th>{head}</th>
          <th>Nodes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([k, n]) => (
          <tr key={k}>
            <td>{k}</td>
            <td>{n}</td>
          </tr>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={2} className="muted">
              No nodes yet.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** What needs the operator, each with a count and a link to the page where it is done; one line when nothing does. */
function NeedsYou({ a }: { a: ConsoleOverview['attention'] }) {
  const items = [
    a.failed_jobs.count > 0 && (
      <li key="jobs">
        <Link href="/fleet">{counted(a.failed_jobs.count, 'failed background job', 'failed background jobs')}</Link>{' '}
        (retry them on the Fleet page)
        <ul aria-label="Newest failed jobs">
          {a.failed_jobs.newest.map((j) => (
            <li key={j.id}>
              #{j.id} <code>{j.name}</code>
              {j.whose && <> for {j.whose}</>}, failed {utc(j.failed_at)}
              {j.reason && <>: {j.reason}</>}
            </li>
          ))}
        </ul>
      </li>
    ),
    a.support_unread.conversations > 0 && (
      <li key="support">
        <Link href="/support">
          {counted(a.support_unread.conversations, 'support chat', 'support chats')} with unread messages
        </Link>{' '}
        ({counted(a.support_unread.messages, 'message', 'messages')})
      </li>
    ),
    a.debts.count > 0 && (
      <li key="debts">
        <Link href="/money">{counted(a.debts.count, 'customer owes', 'customers owe')} money</Link> (
        {usd(a.debts.owed_micros)} in all)
      </li>
    ),
    a.charge_days_stuck.count > 0 && (
      <li key="charge">
        <Link href="/money">
          {counted(a.charge_days_stuck.count, 'daily charge day', 'daily charge days')} not completed
        </Link>{' '}
        (from {a.charge_days_stuck.first})
      </li>
    ),
    a.hosts_low_disk.length > 0 && (
      <li key="disk">
        <Link href="/fleet">{counted(a.hosts_low_disk.length, 'host', 'hosts')} low on disk</Link>:{' '}
        {a.hosts_low_disk
          .map((h) => (h.free_bytes === null ? h.name : `${h.name} (${gb(h.free_bytes)} free)`))
          .join(', ')}
      </li>
    ),
  ].filter(Boolean);
  return (
    <section className="console-section console-wide" aria-labelledby="needs-h">
      <h2 id="needs-h">Needs you</h2>
      {items.length ? (
        <ul className="console-needs">{items}</ul>
      ) : (
        <p>All clear: no failed jobs, unread support chats, open debts, late charge days or hosts low on disk.</p>
      )}
    </section>
  );
}
