import { useEffect, useState } from 'react';

/**
 * How long a screen may say "Loading…" before it says the page did not load and offers
 * a retry. Below the 10 s promised to customers: a page's wait may pass through a few
 * spinners (start-up, a guard, the page's code, its first data), counted as one.
 */
export const LOADING_LIMIT_MS = 8_000;

/** A spinner that follows another within this long continues the same wait. */
const SAME_WAIT_MS = 1_000;

let shown = 0;
let since = 0;
let lastHidden = 0;

function began(now: number): number {
  if (shown === 0 && now - lastHidden > SAME_WAIT_MS) since = now;
  shown += 1;
  return since;
}

function ended(now: number) {
  shown -= 1;
  if (shown === 0) lastHidden = now;
}

/** True once the wait this spinner belongs to has lasted LOADING_LIMIT_MS. */
export function useLoadingTooLong(): boolean {
  const [tooLong, setTooLong] = useState(false);
  useEffect(() => {
    const start = began(Date.now());
    const timer = setTimeout(() => setTooLong(true), Math.max(0, start + LOADING_LIMIT_MS - Date.now()));
    return () => {
      clearTimeout(timer);
      ended(Date.now());
    };
  }, []);
  return tooLong;
}
