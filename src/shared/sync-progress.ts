import { z } from 'zod';

/** A syncing node's progress, as the node page shows it (null once synced). */
export const syncProgress = z.object({
  blocks: z.number(),
  headers: z.number(),
  percent: z.number(),
  /** Seconds left at the rate observed lately; null until there is a rate. */
  eta_s: z.number().nullable(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

/** "about 3 h left", "about 12 min left", "less than a minute left". */
export function etaText(s: number): string {
  if (s < 60) return 'less than a minute left';
  if (s < 3600) return `about ${Math.round(s / 60)} min left`;
  if (s < 2 * 86_400) return `about ${Math.round(s / 3600)} h left`;
  return `about ${Math.round(s / 86_400)} days left`;
}

/** "Syncing 52.3 % — block 1,234 of 2,345 — about 3 h left" (or "estimating…"). */
export function syncProgressText(p: SyncProgress): string {
  const pct = (Math.floor(p.percent * 10) / 10).toFixed(1);
  const n = (x: number) => x.toLocaleString('en-US');
  return `Syncing ${pct} % — block ${n(p.blocks)} of ${n(p.headers)} — ${p.eta_s === null ? 'estimating…' : etaText(p.eta_s)}`;
}
