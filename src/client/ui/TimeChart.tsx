import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = {
  label: string;
  values: number[];
  color: string;
  /** Series on the same scale share an axis; the first scale's axis is on the left, a second on the right. */
  scale: string;
  /** Text of a value in the legend. */
  format: (n: number) => string;
  /** Text of an axis tick, given the step between ticks (so neighbouring ticks never read the same). Defaults to `format`. */
  tick?: (n: number, step: number) => string;
};

const HEIGHT = 240;
const AXIS_FONT = '12px system-ui, sans-serif';
const timeText = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/**
 * A uPlot time-series chart as wide as its container. uPlot draws on a canvas of a
 * fixed size, so the chart follows window resizes itself, and is destroyed on
 * unmount (it holds listeners on the document).
 */
export function TimeChart({ label, times, series }: { label: string; times: string[]; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const scales = [...new Set(series.map((s) => s.scale))];
    const tickFormat = (scale: string) => {
      const s = series.find((x) => x.scale === scale)!;
      return s.tick ?? ((n: number) => s.format(n));
    };
    const lastTime = times.length ? Date.parse(times[times.length - 1]) / 1000 : null;
    // Measures tick labels in the axis font, so small prices ("$0.004512") are not clipped.
    const ctx = document.createElement('canvas').getContext('2d');
    const axisSize = (u: uPlot, values: string[] | null) => {
      if (!ctx || !values?.length) return 50;
      ctx.font = AXIS_FONT;
      return Math.ceil(Math.max(...values.map((v) => ctx.measureText(v).width))) + 22;
    };
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      scales: { x: { time: true } },
      series: [
        {
          label: 'Time (UTC)',
          value: (_u: uPlot, v: number | null) =>
            (v ?? lastTime) === null ? '' : timeText.format(((v ?? lastTime) as number) * 1000),
        },
        ...series.map((s) => ({
          label: s.label,
          scale: s.scale,
          stroke: s.color,
          width: 2,
          points: { show: false },
          // Without a cursor on the chart the legend shows the latest value, never "--".
          value: (_u: uPlot, v: number | null) => {
            const shown = v ?? s.values[s.values.length - 1];
            return shown === undefined || shown === null ? '' : s.format(shown);
          },
        })),
      ],
      axes: [
        { stroke: '#6b7280', font: AXIS_FONT, grid: { stroke: '#eef0f4' }, ticks: { stroke: '#e5e7eb' } },
        ...scales.map((scale, i) => ({
          scale,
          side: i === 0 ? 3 : 1,
          size: axisSize,
          stroke: '#6b7280',
          font: AXIS_FONT,
          grid: { show: i === 0, stroke: '#eef0f4' },
          ticks: { stroke: '#e5e7eb' },
          values: (_u: uPlot, splits: number[], _axis: number, _space: number, step: number) =>
            splits.map((n) => tickFormat(scale)(n, step)),
        })),
      ],
      legend: { live: true },
    };
    // The server sends ISO times; uPlot's time scale counts seconds.
    const xs = times.map((t) => Date.parse(t) / 1000);
    const plot = new uPlot(opts, [xs, ...series.map((s) => s.values)], el);
    const onResize = () => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT });
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      plot.destroy();
    };
  }, [times, series]);

  return <div ref={box} className="chart" role="figure" aria-label={label} />;
}
