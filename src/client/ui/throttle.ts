/**
 * Calls `fn` at most once per `ms`: at once, and once more at the end of the window
 * if calls came in meanwhile (so the last scroll position is always checked).
 */
export function throttle(fn: () => void, ms: number): { run: () => void; cancel: () => void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    fn();
  };
  return {
    run() {
      const wait = last + ms - Date.now();
      if (wait <= 0 && !timer) fire();
      else if (!timer) timer = setTimeout(fire, Math.max(wait, 0));
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
