import { useId, useState } from 'react';
import { formatNumber } from '../../shared/format';
import { income } from '../../shared/roi';
import type { CoinDetail } from '../../shared/schemas/coins';
import { DAYS_PER_MONTH } from './coinList';
import { formatUsd2, MISSING } from '../ui/display';
import { defaultText, MAX_NODES, parseAmount, parseNodes, type Parsed } from './incomeInput';

/**
 * A field's text, or null while untouched: an untouched field shows its default
 * shortened and the calculator uses the exact default (the coin's current price and
 * ROI, as in the server's tables), following new market data as it arrives.
 */
type FieldText = string | null;

const usd = (n: number) => `$${formatNumber(n)}`;

/** Income of n nodes: yearly = collateral × price × roi / 100, monthly /12, weekly /52, daily /365 (shared/roi.ts). */
export function IncomeCalculator({ coin, price }: { coin: CoinDetail; price: number }) {
  const [nodesText, setNodesText] = useState<FieldText>(null);
  const [priceText, setPriceText] = useState<FieldText>(null);
  const [roiText, setRoiText] = useState<FieldText>(null);

  const roi = coin.roi ?? 0;
  const read = (text: FieldText, fallback: number, parse: (t: string) => Parsed): Parsed =>
    text === null ? { ok: true, value: fallback } : parse(text);
  const n = read(nodesText, 1, parseNodes);
  const p = read(priceText, price, (t) => parseAmount(t, 'price'));
  const r = read(roiText, roi, (t) => parseAmount(t, 'ROI'));

  const perNode = p.ok && r.ok ? income(coin.collateral, p.value, r.value) : null;
  const times = n.ok ? n.value : null;
  const total = (k: 'yearly' | 'monthly' | 'weekly' | 'daily') =>
    perNode && times !== null ? usd(perNode[k] * times) : MISSING;

  return (
    <section className="card income-calculator" aria-labelledby="income-title">
      <h2 id="income-title">Income calculator</h2>
      <div className="calc-fields">
        <CalcField
          label="Number of nodes"
          inputMode="numeric"
          text={nodesText ?? '1'}
          parsed={n}
          onText={setNodesText}
          hint={`1 to ${MAX_NODES}`}
        />
        <CalcField
          label="Price (USD)"
          inputMode="decimal"
          text={priceText ?? defaultText(price)}
          parsed={p}
          onText={setPriceText}
        />
        <CalcField
          label="ROI (% per year)"
          inputMode="decimal"
          text={roiText ?? defaultText(roi)}
          parsed={r}
          onText={setRoiText}
        />
      </div>
      <dl className="calc-results" aria-label="Estimated income">
        <Result label="Yearly income" value={total('yearly')} testId="income-yearly" />
        <Result label="Monthly income" value={total('monthly')} testId="income-monthly" />
        <Result label="Weekly income" value={total('weekly')} testId="income-weekly" />
        <Result label="Daily income" value={total('daily')} testId="income-daily" />
        <Result
          label="Collateral needed"
          value={times !== null ? `${formatNumber(times * coin.collateral)} ${coin.ticker}` : MISSING}
          testId="income-collateral"
        />
        <Result
          label="Hosting cost per month"
          value={times !== null ? formatUsd2(times * DAYS_PER_MONTH * coin.dedicated_price) : MISSING}
          note="Dedicated plan"
          testId="income-hosting"
        />
      </dl>
      <p className="muted small">
        Estimates before hosting fees. ROI is the platform’s own formula; actual returns may differ by ±10%.
      </p>
    </section>
  );
}

function CalcField({
  label,
  text,
  parsed,
  onText,
  inputMode,
  hint,
}: {
  label: string;
  text: string;
  parsed: Parsed;
  onText: (text: string) => void;
  inputMode: 'numeric' | 'decimal';
  hint?: string;
}) {
  const id = useId();
  const message = parsed.ok ? parsed.note : parsed.message;
  const invalid = !parsed.ok;
  return (
    <div className={`field${invalid ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {/* type=text: a number input would hide what was typed ("abc" reads as empty) instead of letting us say what is wrong. */}
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        value={text}
        onChange={(e) => onText(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={message || hint ? `${id}-note` : undefined}
      />
      {message ? (
        <p id={`${id}-note`} className={invalid ? 'field-error' : 'field-hint'} role={invalid ? 'alert' : undefined}>
          {message}
        </p>
      ) : hint ? (
        <p id={`${id}-note`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function Result({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div>
      <dt>
        {label}
        {note && <span className="muted small"> ({note})</span>}
      </dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
