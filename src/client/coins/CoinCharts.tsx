import { Suspense, useMemo } from 'react';
import { lazyPage } from '../app/lazyPage';
import { formatPrice } from '../../shared/format';
import type { CoinDetail } from '../../shared/schemas/coins';
import type { ChartSeries } from '../ui/TimeChart';
import { compactTick, priceTick } from './chartTicks';

// uPlot is only needed on this page: its own chunk keeps it out of the main bundle.
const TimeChart = lazyPage(() => import('../ui/TimeChart'), 'TimeChart');

/** Spec section 9: charts show the last 60 points. */
const POINTS = 60;

const compactUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 2,
});

type Chart = CoinDetail['charts'][number];
type Plot = { times: string[]; series: ChartSeries[] };

function lastPoints(chart: Chart): Chart {
  return { name: chart.name, labels: chart.labels.slice(-POINTS), values: chart.values.slice(-POINTS) };
}

/**
 * The two plots from the server's charts. Built once per response: TimeChart redraws
 * whenever it gets new arrays.
 */
function plotsOf(charts: Chart[]): { price: Plot; market: Plot } {
  const byName = (name: string) => {
    const c = charts.find((x) => x.name.toLowerCase() === name);
    return c ? lastPoints(c) : undefined;
  };
  const price = byName('price');
  const cap = byName('market cap');
  const volume = byName('volume');
  const market: ChartSeries[] = [];
  if (cap)
    market.push({
      label: 'Market cap',
      values: cap.values,
      color: '#13804b',
      scale: 'cap',
      format: (n) => compactUsd.format(n),
      tick: compactTick,
    });
  // Both series share one time axis: the server builds them from the same history rows.
  if (volume && (!cap || volume.labels.length === cap.labels.length)) {
    market.push({
      label: 'Volume',
      values: volume.values,
      color: '#c07a00',
      scale: 'vol',
      format: (n) => compactUsd.format(n),
      tick: compactTick,
    });
  }
  return {
    price: {
      times: price?.labels ?? [],
      series: price
        ? [
            {
              label: 'Price',
              values: price.values,
              color: '#3b6df6',
              scale: 'usd',
              format: (n) => `$${formatPrice(n)}`,
              tick: priceTick,
            },
          ]
        : [],
    },
    market: { times: cap?.labels ?? volume?.labels ?? [], series: market },
  };
}

/** The price chart and the market chart (market cap and volume, each on its own axis). */
export function CoinCharts({ charts }: { charts: Chart[] }) {
  const plots = useMemo(() => plotsOf(charts), [charts]);
  return (
    <div className="coin-charts">
      <ChartCard title="Price chart" plot={plots.price} />
      <ChartCard title="Market chart" plot={plots.market} />
    </div>
  );
}

function ChartCard({ title, plot }: { title: string; plot: Plot }) {
  const enough = plot.series.length > 0 && plot.times.length >= 2;
  return (
    <section className="card chart-card" aria-label={title}>
      <h2>{title}</h2>
      {enough ? (
        <Suspense fallback={<div className="chart chart-loading" aria-hidden="true" />}>
          <TimeChart
            label={`${title}: ${plot.series.map((s) => s.label).join(' and ')} in USD`}
            times={plot.times}
            series={plot.series}
          />
        </Suspense>
      ) : (
        <p className="muted">Not enough market history yet.</p>
      )}
    </section>
  );
}
