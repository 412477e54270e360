import { useEffect, useState } from 'react';

/**
 * How long a screen may say "Loading…" before it says the page did not load and offers
 * a retry. Below the 10 s promised to customers: a page's wait may pass through a few
 * spinners (start-up, a guard, the page's code, its first data), counted as one.
 */
export const LOADING_LIMIT_MS = 8_000;

/** A spinner that follows another within this long continues the same wait. */
export const SAME_WAIT_MS = 1_000;

/** When the wait now on screen began, across the spinners that take turns showing it. */
export class LoadingClock {
  private shown = 0;
  private since = 0;
  private lastHidden = -Infinity;

  /** A spinner appears: the start of the wait it belongs to. */
  began(now: number): number {
    if (this.shown === 0 && now - this.lastHidden > SAME_WAIT_MS) this.since = now;
    this.shown += 1;
    return this.since;
  }

  /** A spinner goes away. */
  ended(now: number) {
    this.shown -= 1;
    if (this.shown === 0) this.lastHidden = now;
  }
}

const clock = new LoadingClock();

/** True once the wait this spinner belongs to has lasted LOADING_LIMIT_MS. */
export function useLoadingTooLong(): boolean {
  const [tooLong, setTooLong] = useState(false);
  useEffect(() => {
    const start = clock.began(Date.now());
    const timer = setTimeout(() => setTooLong(true), Math.max(0, start + LOADING_LIMIT_MS - Date.now()));
    return () => {
      clearTimeout(timer);
      clock.ended(Date.now());
    };
  }, []);
  return tooLong;
}
