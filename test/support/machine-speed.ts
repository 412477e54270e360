import { spawnSync } from 'node:child_process';
import { vi } from 'vitest';

/**
 * How much slower than a quiet two-core machine this one is right now, measured by what a
 * test that starts a real process pays for: starting a trivial Node process. A fixed 30 s
 * budget that holds on a quiet machine fails on a loaded one (load average 15) although
 * nothing is wrong; a budget scaled by this factor keeps meaning "something is stuck".
 */
const QUIET_START_MS = 80; // `node -e 0` on this machine with nothing else running: 40-80 ms
const MAX_FACTOR = 8; // past this the machine is not slow but stuck: fail in bounded time
const KEY = 'NODEKEEP_TEST_SPEED_FACTOR';

/**
 * The factor (1 or more), measured once per worker: kept in the worker's environment, so
 * later files in the same fork reuse it (the median of three starts, one outlier aside).
 */
export function machineFactor(): number {
  const known = Number(process.env[KEY]);
  if (known >= 1) return known;
  const starts = [0, 1, 2]
    .map(() => {
      const t = performance.now();
      spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      return performance.now() - t;
    })
    .sort((a, b) => a - b);
  const factor = Math.min(MAX_FACTOR, Math.max(1, starts[1]! / QUIET_START_MS));
  process.env[KEY] = factor.toFixed(2);
  return Number(process.env[KEY]);
}

/** `ms` scaled by the machine's measured speed: the budget for a wait on a real process. */
export const scaled = (ms: number): number => Math.round(ms * machineFactor());

/**
 * Scales this file's test and hook timeouts (vitest's 30 s and 60 s by default) by the
 * machine's speed. Call at the top of a file whose tests start real processes.
 */
export function scaleFileTimeouts(testTimeout = 30_000, hookTimeout = 60_000): void {
  vi.setConfig({ testTimeout: scaled(testTimeout), hookTimeout: scaled(hookTimeout) });
}
