import { useId } from 'react';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { UPTIME_DAYS } from '../../shared/node-maintenance';

const W = 300;
const H = 60;
const GAP = 2;

/** Percent with one decimal, 100 and 0 without. */
const pct = (up: number, checks: number) => {
  const p = (up / checks) * 100;
  return p === 100 || p === 0 ? `${p} %` : `${p.toFixed(1)} %`;
};

/**
 * The node's uptime over the last 30 UTC days as one bar per day (inline SVG): the share
 * of the monitor's checks that found the daemon answering. A day without checks (before
 * the node existed or first answered) has no bar and says so.
 */
export function UptimeCard({ uptime }: { uptime: MasternodeDetail['uptime'] }) {
  const titleId = useId();
  const checks = uptime.reduce((s, d) => s + d.checks, 0);
  const up = uptime.reduce((s, d) => s + d.up, 0);
  const bar = (W - GAP * (UPTIME_DAYS - 1)) / UPTIME_DAYS;
  return (
    <section className="card uptime-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Uptime, last {UPTIME_DAYS} days
      </h2>
      <p className="uptime-total">
        {checks === 0 ? 'No checks yet: uptime is counted from the daemon’s first answer.' : pct(up, checks)}
      </p>
      <svg
        className="uptime-chart"
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Uptime per day over the last ${UPTIME_DAYS} days`}
      >
        {uptime.map((d, i) => {
          const x = i * (bar + GAP);
          if (d.checks === 0)
            return (
              <rect key={d.day} x={x} y={H - 2} width={bar} height={2} className="uptime-none">
                <title>{`${d.day}: no checks`}</title>
              </rect>
            );
          const h = Math.max(2, (d.up / d.checks) * H);
          const cls = d.up === d.checks ? 'uptime-full' : d.up / d.checks >= 0.95 ? 'uptime-some' : 'uptime-low';
          return (
            <rect key={d.day} x={x} y={H - h} width={bar} height={h} className={cls} data-day={d.day}>
              <title>{`${d.day}: ${pct(d.up, d.checks)} of ${d.checks} checks`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="uptime-axis muted small">
        <span>{uptime[0]?.day}</span>
        <span>{uptime[uptime.length - 1]?.day}</span>
      </div>
    </section>
  );
}
