/**
 * A small line chart as inline SVG (no chart library in the console's chunk): one
 * series scaled to its own maximum, the first and last day named under it.
 */
export function TrendChart({
  label,
  days,
  values,
  format,
}: {
  label: string;
  days: string[];
  values: number[];
  format: (n: number) => string;
}) {
  const w = 320;
  const h = 90;
  const pad = 4;
  const highest = Math.max(0, ...values);
  const max = Math.max(1, highest);
  const x = (i: number) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v: number) => h - pad - (v / max) * (h - 2 * pad);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = values.at(-1) ?? 0;
  return (
    <figure className="console-chart">
      <figcaption>
        {label}: <strong>{format(last)}</strong> <span className="muted">today, highest {format(highest)}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${w} ${h}`}
        role="img"
        aria-label={`${label} over the last ${values.length} days`}
        preserveAspectRatio="none"
      >
        <line x1={pad} y1={h - pad} x2={w - pad} y2={h - pad} className="console-chart-axis" />
        <polyline points={points} className="console-chart-line" />
        {values.map((v, i) => (
          <circle key={days[i]} cx={x(i)} cy={y(v)} r={1.8} className="console-chart-dot">
            <title>{`${days[i]}: ${format(v)}`}</title>
          </circle>
        ))}
      </svg>
      <div className="console-chart-days muted">
        <span>{days[0]}</span>
        <span>{days.at(-1)}</span>
      </div>
    </figure>
  );
}
