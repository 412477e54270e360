import type { Selectable } from 'kysely';
import type { SyncProgressTable } from '../db/schema';
import type { SyncProgress } from '../../shared/sync-progress';

export type SyncRow = Omit<Selectable<SyncProgressTable>, 'node_id'>;

/** The estimate's rate is taken over the last 5 to 10 minutes of observations. */
export const SYNC_WINDOW_MS = 10 * 60_000;

/**
 * The node's progress after one look at its daemon: blocks, target, when blocks last rose,
 * and a sliding window (ref → now) whose rate the estimate uses. A node that went back
 * (resynced from scratch) starts a new window.
 */
export function nextSyncRow(
  prev: SyncRow | null,
  seen: { blocks: number; headers: number | null; synced: boolean },
  now: number,
  windowMs = SYNC_WINDOW_MS,
): SyncRow {
  const { blocks, headers } = seen;
  if (!prev || prev.blocks === null || blocks < prev.blocks)
    return {
      blocks,
      headers,
      synced: seen.synced ? 1 : 0,
      rose_at: now,
      ref_blocks: blocks,
      ref_at: now,
      mid_blocks: blocks,
      mid_at: now,
      rate: null,
    };
  const rose = blocks > prev.blocks;
  let { ref_blocks, ref_at, mid_blocks, mid_at } = prev;
  if (now - mid_at >= windowMs / 2) {
    ref_blocks = mid_blocks;
    ref_at = mid_at;
    mid_blocks = blocks;
    mid_at = now;
  }
  const rate = now > ref_at && blocks > ref_blocks ? (blocks - ref_blocks) / ((now - ref_at) / 1000) : null;
  return {
    blocks,
    headers,
    synced: seen.synced ? 1 : 0,
    rose_at: rose ? now : prev.rose_at,
    ref_blocks,
    ref_at,
    mid_blocks,
    mid_at,
    rate,
  };
}

/** What the node page shows: null once synced (or before there is anything to show). */
export function syncProgressOf(row: SyncRow | null | undefined): SyncProgress | null {
  if (!row || row.synced === 1 || row.blocks === null || row.headers === null || row.headers <= 0) return null;
  const remaining = Math.max(0, row.headers - row.blocks);
  return {
    blocks: row.blocks,
    headers: row.headers,
    percent: Math.min(100, (row.blocks / row.headers) * 100),
    eta_s: row.rate && row.rate > 0 ? Math.round(remaining / row.rate) : null,
  };
}

/** Not synced and no block for `stallMs`: the owner is told once. */
export function syncStalled(row: SyncRow | null | undefined, now: number, stallMs: number): boolean {
  return !!row && row.synced === 0 && now - row.rose_at >= stallMs;
}
