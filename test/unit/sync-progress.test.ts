import { describe, expect, it } from 'vitest';
import { nextSyncRow, syncProgressOf, syncStalled, SYNC_WINDOW_MS } from '../../src/server/nodes/sync-progress';
import { syncProgressText } from '../../src/shared/sync-progress';

const t0 = 1_800_000_000_000;
const min = 60_000;

describe('sync estimate', () => {
  it('is null until blocks rose, then remaining blocks over the observed rate', () => {
    let row = nextSyncRow(null, { blocks: 1000, headers: 10_000, synced: false }, t0);
    expect(syncProgressOf(row)).toEqual({ blocks: 1000, headers: 10_000, percent: 10, eta_s: null });
    row = nextSyncRow(row, { blocks: 1000, headers: 10_000, synced: false }, t0 + min);
    expect(syncProgressOf(row)?.eta_s).toBeNull();
    // 600 blocks in 2 minutes: 5 a second, 8400 left → 1680 s.
    row = nextSyncRow(row, { blocks: 1600, headers: 10_000, synced: false }, t0 + 2 * min);
    expect(syncProgressOf(row)).toEqual({ blocks: 1600, headers: 10_000, percent: 16, eta_s: 1680 });
  });

  it('takes the rate over a recent window, not since the first look', () => {
    let row = nextSyncRow(null, { blocks: 0, headers: 100_000, synced: false }, t0);
    // Slow at first (1 block/s for 10 minutes), then fast (10 blocks/s).
    let blocks = 0;
    for (let m = 1; m <= 10; m++)
      row = nextSyncRow(row, { blocks: (blocks += 60), headers: 100_000, synced: false }, t0 + m * min);
    for (let m = 11; m <= 30; m++)
      row = nextSyncRow(row, { blocks: (blocks += 600), headers: 100_000, synced: false }, t0 + m * min);
    expect(row.ref_at).toBeGreaterThanOrEqual(t0 + 30 * min - SYNC_WINDOW_MS);
    expect(row.rate).toBeCloseTo(10, 5);
  });

  it('starts over when the node goes back, and shows nothing once synced', () => {
    let row = nextSyncRow(null, { blocks: 500, headers: 1000, synced: false }, t0);
    row = nextSyncRow(row, { blocks: 600, headers: 1000, synced: false }, t0 + min);
    row = nextSyncRow(row, { blocks: 10, headers: 1000, synced: false }, t0 + 2 * min);
    expect(row.rate).toBeNull();
    expect(row.ref_blocks).toBe(10);
    row = nextSyncRow(row, { blocks: 1000, headers: 1000, synced: true }, t0 + 3 * min);
    expect(syncProgressOf(row)).toBeNull();
  });

  it('is stalled when not synced and blocks have not risen for the stall time', () => {
    let row = nextSyncRow(null, { blocks: 5, headers: 10, synced: false }, t0);
    row = nextSyncRow(row, { blocks: 5, headers: 12, synced: false }, t0 + 59 * min);
    expect(syncStalled(row, t0 + 59 * min, 60 * min)).toBe(false);
    expect(syncStalled(row, t0 + 60 * min, 60 * min)).toBe(true);
    row = nextSyncRow(row, { blocks: 6, headers: 12, synced: false }, t0 + 61 * min);
    expect(syncStalled(row, t0 + 61 * min, 60 * min)).toBe(false);
  });

  it('says it in words', () => {
    expect(syncProgressText({ blocks: 1234, headers: 2345, percent: (1234 / 2345) * 100, eta_s: 3 * 3600 })).toBe(
      'Syncing 52.6 % — block 1,234 of 2,345 — about 3 h left',
    );
    expect(syncProgressText({ blocks: 1, headers: 2, percent: 50, eta_s: null })).toBe(
      'Syncing 50.0 % — block 1 of 2 — estimating…',
    );
  });
});
