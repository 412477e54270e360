/** Balance as shown in the top bar and settings: US grouping, two decimals. */
export function formatBalance(usd: number): string {
  return usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
