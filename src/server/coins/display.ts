import type { DisplayValue } from '../../shared/schemas/coins';

type Opts = Partial<Omit<DisplayValue, 'value'>>;

function display(value: number | null, format: DisplayValue['format'], opts: Opts = {}): DisplayValue {
  return {
    value: value !== null && Number.isFinite(value) ? value : null,
    round: 2,
    prefix: '',
    suffix: '',
    color: '',
    mustsee: false,
    ...opts,
    format,
  };
}

export const asNumber = (value: number | null, opts?: Opts) => display(value, 'number', opts);
export const asUsd = (value: number | null, opts?: Opts) => display(value, 'usd', { prefix: '$', ...opts });
export const asPercent = (value: number | null, opts?: Opts) => display(value, 'percent', { suffix: '%', ...opts });

/** A 24 h change: green up, red down. */
export const asChange = (value: number | null) =>
  asPercent(value, { color: value === null || value === 0 ? '' : value > 0 ? 'green' : 'red' });
