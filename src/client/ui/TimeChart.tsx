import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = {
  label: string;
  values: number[];
  color: string;
  /** Series on the same scale share an axis; the first scale's axis is on the left, a second on the right. */
  scale: string;
  /** Text of a value in the legend and on the axis. */
  format: (n: number) => string;
};

const HEIGHT = 240;

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
    const axisFormat = (scale: string) => series.find((s) => s.scale === scale)!.format;
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      scales: { x: { time: true } },
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          scale: s.scale,
          stroke: s.color,
          width: 2,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => (v === null ? '--' : s.format(v)),
        })),
      ],
      axes: [
        { stroke: '#6b7280', grid: { stroke: '#eef0f4' }, ticks: { stroke: '#e5e7eb' } },
        ...scales.map((scale, i) => ({
          scale,
          side: i === 0 ? 3 : 1,
          size: 76,
          stroke: '#6b7280',
          grid: { show: i === 0, stroke: '#eef0f4' },
          ticks: { stroke: '#e5e7eb' },
          values: (_u: uPlot, splits: number[]) => splits.map(axisFormat(scale)),
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
