import { useEffect, useRef } from 'react';
import { throttle } from './throttle';

/** How close to the page bottom counts as "near" (about three rows). */
const NEAR_PX = 240;
/** Spec: the scroll check is throttled to 100 ms. */
const THROTTLE_MS = 100;

function nearBottom(): boolean {
  const doc = document.documentElement;
  return window.innerHeight + window.scrollY >= doc.scrollHeight - NEAR_PX;
}

/**
 * Calls `onNear` while the window is scrolled near the page bottom and `active` is
 * true. Also checks after every change of `deps`: on a screen tall enough to show
 * every row there is nothing to scroll, and the rest must still appear.
 */
export function useNearBottom(onNear: () => void, active: boolean, deps: unknown[]) {
  const callback = useRef(onNear);
  callback.current = onNear;

  useEffect(() => {
    if (!active) return;
    const check = throttle(() => {
      if (nearBottom()) callback.current();
    }, THROTTLE_MS);
    window.addEventListener('scroll', check.run, { passive: true });
    window.addEventListener('resize', check.run);
    check.run();
    return () => {
      window.removeEventListener('scroll', check.run);
      window.removeEventListener('resize', check.run);
      check.cancel();
    };
    // `deps` is the caller's "rows changed" signal: re-check once the new rows are laid out.
  }, [active, ...deps]);
}
