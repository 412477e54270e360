/** How long past its deadline an attempt may take to notice the abort before it is given up on. */
export const ABORT_GRACE_MS = 1000;

export class DeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`deadline of ${deadlineMs} ms exceeded`);
    this.name = 'DeadlineError';
  }
}

/**
 * Runs one attempt with an AbortSignal that fires at the deadline. A handler that
 * ignores the signal is given up on `ABORT_GRACE_MS` later: the attempt counts as
 * failed and its slot is free, so one hung call cannot hold a runner (or shutdown).
 */
export async function runWithDeadline(deadlineMs: number, fn: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  const givenUp = new Promise<never>((_, reject) => {
    timers.push(setTimeout(() => ac.abort(new DeadlineError(deadlineMs)), deadlineMs));
    timers.push(setTimeout(() => reject(new DeadlineError(deadlineMs)), deadlineMs + ABORT_GRACE_MS));
  });
  givenUp.catch(() => {});
  try {
    await Promise.race([fn(ac.signal), givenUp]);
    // A handler that swallowed the abort and returned still missed its deadline.
    if (ac.signal.aborted) throw ac.signal.reason;
  } finally {
    for (const t of timers) clearTimeout(t);
  }
}

/** Exponential backoff: base, 2 x base, 4 x base, ... capped. */
export function backoffMs(attempt: number, baseMs: number, capMs = 3_600_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
