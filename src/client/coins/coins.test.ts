import { describe, expect, it } from 'vitest';
import type { CoinRow, DisplayValue } from '../../shared/schemas/coins';
import { matchesSearch, nextSort, sortCoins } from './coinList';
import { displayClass, displayText, shortPair, statisticText } from '../ui/display';
import { searchFaq } from './faq';
import { defaultText, parseAmount, parseNodes } from './incomeInput';
import { campaignRows, lowestDailyPrice, planFloors } from './pricing';

// The coin pages' rules apart from the browser: formatting, sort, search, the
// calculator's input, the plans' "from" prices and the FAQ search.

const dv = (value: number | null, format: DisplayValue['format'], extra: Partial<DisplayValue> = {}): DisplayValue => ({
  value,
  format,
  round: 2,
  prefix: '',
  suffix: '',
  color: '',
  mustsee: false,
  ...extra,
});

describe('display objects', () => {
  it('formats by the shared rules, with prefix and suffix', () => {
    expect(displayText(dv(40683.98366, 'usd', { prefix: '$' }))).toBe('$40,683.98');
    expect(displayText(dv(1000, 'number', { suffix: ' DASH' }))).toBe('1,000 DASH');
    expect(displayText(dv(42, 'number', { suffix: ' ZEN' }))).toBe('42.00 ZEN');
    expect(displayText(dv(0.0000839, 'price', { prefix: '$' }))).toBe('$0.000084');
    expect(displayText(dv(null, 'usd', { prefix: '$' }))).toBe('--');
  });

  it('writes a percent sign once and keeps counts whole', () => {
    expect(displayText(dv(7.14816, 'percent', { suffix: '%' }))).toBe('7.15%');
    expect(displayText(dv(-4.7304, 'percent'))).toBe('-4.73%');
    expect(displayText(dv(0, 'number', { round: 0 }))).toBe('0');
    expect(displayText(dv(3000, 'number', { round: 0 }))).toBe('3,000');
    expect(displayText(dv(0.1, 'usd', { prefix: '$', suffix: '/day', round: 3 }))).toBe('$0.100/day');
  });

  it('colours changes and emphasises the figure to see', () => {
    expect(displayClass({ color: 'green', mustsee: false })).toBe('figure text-green');
    expect(displayClass({ color: 'red', mustsee: true })).toBe('figure text-red text-strong');
    expect(displayClass({ color: '', mustsee: false })).toBe('figure');
  });

  it('shows text statistics as given', () => {
    expect(statisticText({ value: 'X11', format: 'text', round: 2, prefix: '', suffix: '' })).toBe('X11');
    expect(statisticText({ value: 'not offered', format: 'text', round: 2, prefix: '', suffix: '' })).toBe(
      'not offered',
    );
    expect(statisticText({ value: null, format: 'number', round: 2, prefix: '', suffix: '' })).toBe('--');
  });

  it('cuts long exchange pairs to five characters per side', () => {
    expect(shortPair('ABCDEFGHIJ/KLMNOPQRST')).toBe('ABCDE…/KLMNO…');
    expect(shortPair('DASH/USDT')).toBe('DASH/USDT');
    expect(shortPair('ABCDEFGHIJKL/USDT')).toBe('ABCDE…/USDT');
    expect(shortPair('ABCDEFGHIJKLMNOP')).toBe('ABCDE…');
  });
});

const row = (id: string, hosted: number, roi: number | null, label = id): CoinRow => ({
  id,
  label,
  ticker: id.toUpperCase(),
  logo: `/logos/${id}.svg`,
  collateral: dv(1000, 'number'),
  masternode_value: dv(1, 'usd'),
  roi: dv(roi, 'percent'),
  revenue_mo: dv(1, 'usd'),
  hosted_mns: dv(hosted, 'number', { round: 0 }),
  price_change: dv(0, 'percent'),
  host_price: 0.13,
  delisted: false,
  maintenance: false,
  coming_soon: false,
});

describe('coin list', () => {
  const rows = [row('a', 0, 5), row('b', 2, null), row('c', 0, 9), row('d', 2, 1)];
  const order = ['b', 'd', 'a', 'c'];

  it('sorts by hosted nodes with the server order as tie-break', () => {
    expect(sortCoins(rows, order, { key: 'hosted_mns', dir: 'desc' }).map((r) => r.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(sortCoins(rows, order, { key: 'hosted_mns', dir: 'asc' }).map((r) => r.id)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('puts missing figures last in both directions', () => {
    expect(sortCoins(rows, order, { key: 'roi', dir: 'desc' }).map((r) => r.id)).toEqual(['c', 'a', 'd', 'b']);
    expect(sortCoins(rows, order, { key: 'roi', dir: 'asc' }).map((r) => r.id)).toEqual(['d', 'a', 'c', 'b']);
  });

  it('toggles the direction on a second click', () => {
    expect(nextSort({ key: 'hosted_mns', dir: 'desc' }, 'roi')).toEqual({ key: 'roi', dir: 'desc' });
    expect(nextSort({ key: 'roi', dir: 'desc' }, 'roi')).toEqual({ key: 'roi', dir: 'asc' });
    expect(nextSort({ key: 'roi', dir: 'asc' }, 'coin')).toEqual({ key: 'coin', dir: 'asc' });
  });

  it('searches label, ticker and id', () => {
    const dash = { id: 'dash', label: 'Dash', ticker: 'DASH' };
    const zen = { id: 'zen42', label: 'Horizen Secure Node', ticker: 'ZEN' };
    expect(matchesSearch(dash, ' DAS ')).toBe(true);
    expect(matchesSearch(zen, 'secure')).toBe(true);
    expect(matchesSearch(zen, 'zen42')).toBe(true);
    expect(matchesSearch(zen, 'dash')).toBe(false);
    expect(matchesSearch(zen, '')).toBe(true);
  });
});

describe('income calculator input', () => {
  it('takes whole node counts from 1 and caps them at 1000', () => {
    expect(parseNodes('3')).toEqual({ ok: true, value: 3 });
    expect(parseNodes('5000')).toMatchObject({ ok: true, value: 1000 });
    for (const bad of ['', ' ', '0', '-1', '1.5', 'abc', '1e3', '3x']) expect(parseNodes(bad).ok, bad).toBe(false);
  });

  it('takes plain non-negative decimals for price and ROI', () => {
    expect(parseAmount('40.68', 'price')).toEqual({ ok: true, value: 40.68 });
    expect(parseAmount('.5', 'ROI')).toEqual({ ok: true, value: 0.5 });
    expect(parseAmount('0', 'price')).toEqual({ ok: true, value: 0 });
    for (const bad of ['', '-1', 'abc', '1,5', '1e3', 'Infinity', '1.2.3'])
      expect(parseAmount(bad, 'price').ok, bad).toBe(false);
  });

  it('shortens defaults without exponents', () => {
    expect(defaultText(40.68398366519968)).toBe('40.683984');
    expect(defaultText(7.148160000000001)).toBe('7.14816');
    expect(defaultText(0.000000015)).toBe('0.000000015');
    expect(defaultText(null)).toBe('');
  });
});

describe('pricing', () => {
  const row = (
    id: string,
    regular: [number, number | null],
    now: [number, number | null] = regular,
    extra: { delisted?: boolean } = {},
  ) => ({
    id,
    label: id.toUpperCase(),
    ticker: id.toUpperCase(),
    regular_dedicated_price_usd: regular[0],
    regular_cloud_price_usd: regular[1],
    dedicated_price_usd: now[0],
    cloud_price_usd: now[1],
    campaign: now[0] !== regular[0],
    delisted: extra.delisted ?? false,
  });

  it('starts each plan at the lowest price offered now, campaign prices included; delisted and coming-soon coins offer nothing', () => {
    const rows = [
      row('a', [0.13, 0.063]),
      row('b', [0.2, null]),
      row('c', [0.13, 0.063], [0.1, 0.045]),
      row('d', [0.05, 0.01], [0.05, 0.01], { delisted: true }),
      { ...row('e', [0.04, 0.02]), coming_soon: true },
    ];
    const floors = planFloors(rows);
    expect(floors.dedicated).toEqual({ daily: 0.1, monthly: 30 * 0.1 });
    expect(floors.cloud).toEqual({ daily: 0.045, monthly: 30 * 0.045 });
    expect(lowestDailyPrice(rows)).toBe(0.045);
    expect(lowestDailyPrice([row('b', [0.2, null])])).toBe(0.2);
    expect(planFloors([]).cloud).toBeNull();
    expect(lowestDailyPrice([])).toBeNull();
    expect(campaignRows(rows).map((r) => r.id)).toEqual(['c']);
  });
});

describe('faq', () => {
  it('searches questions and answers', () => {
    const refund = searchFaq('REFUND').flatMap((t) => t.items.map((i) => i.id));
    expect(refund).toEqual(['refunds']);
    expect(searchFaq('00:00 UTC').flatMap((t) => t.items.map((i) => i.id))).toContain('daily-charge');
    expect(searchFaq('xyzzy')).toEqual([]);
  });
});
