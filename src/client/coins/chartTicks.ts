// Axis tick labels of the coin charts: as many decimals as the tick step needs, so
// small prices keep their digits and no two neighbouring ticks read the same.

/** Decimals that tell ticks `step` apart (at least `min`). */
const decimalsFor = (step: number, min: number) =>
  step > 0 && step < 1 ? Math.max(min, Math.ceil(-Math.log10(step) - 1e-9)) : min;

/** A price tick: two decimals as prices are shown, more when the ticks are closer than a cent. */
export function priceTick(n: number, step: number): string {
  const d = Math.abs(n) >= 1000 && step >= 1 ? 0 : decimalsFor(step, 2);
  return `$${n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })}`;
}

/** A compact tick ($1.25M) with enough decimals that neighbouring ticks differ. */
export function compactTick(n: number, step: number): string {
  const unit = n === 0 ? 1 : 10 ** (3 * Math.floor(Math.log10(Math.abs(n)) / 3));
  const d = Math.min(3, decimalsFor(step / Math.max(unit, 1), 0));
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    minimumFractionDigits: d,
    maximumFractionDigits: d,
  }).format(n);
}
