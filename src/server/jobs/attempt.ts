/** How long past its deadline an attempt may take to notice the abort before it is given up on. */
export const ABORT_GRACE_MS = 1000;

export class DeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`deadline of ${deadlineMs} ms exceeded`);
    this.name = 'DeadlineError';
  }
}

/**
 * Runs one attempt with an AbortSignal that fires at the deadline, or earlier when
 * `stop` fires (shutdown). A handler that ignores the signal is given up on
 * `ABORT_GRACE_MS` later: the attempt counts as failed and its slot is free, so one
 * hung call cannot hold a runner (or shutdown).
 */
export async function runWithDeadline(
  deadlineMs: number,
  fn: (signal: AbortSignal) => Promise<void>,
  stop?: AbortSignal,
): Promise<void> {
  const ac = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let onStop: (() => void) | undefined;
  const givenUp = new Promise<never>((_, reject) => {
    const abortThenGiveUp = (reason: unknown) => {
      if (ac.signal.aborted) return;
      ac.abort(reason);
      timers.push(setTimeout(() => reject(reason), ABORT_GRACE_MS));
    };
    timers.push(setTimeout(() => abortThenGiveUp(new DeadlineError(deadlineMs)), deadlineMs));
    if (stop) {
      onStop = () => abortThenGiveUp(stop.reason ?? new Error('shutting down'));
      if (stop.aborted) onStop();
      else stop.addEventListener('abort', onStop, { once: true });
    }
  });
  givenUp.catch(() => {});
  try {
    await Promise.race([fn(ac.signal), givenUp]);
    // A handler that swallowed the abort and returned still missed its deadline.
    if (ac.signal.aborted) throw ac.signal.reason;
  } finally {
    for (const t of timers) clearTimeout(t);
    if (stop && onStop) stop.removeEventListener('abort', onStop);
  }
}

/** Exponential backoff: base, 2 x base, 4 x base, ... capped. */
export function backoffMs(attempt: number, baseMs: number, capMs = 3_600_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
