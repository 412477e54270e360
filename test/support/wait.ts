/**
 * Polls `fn` until it returns a truthy value or the time is up; the error says what was
 * awaited, for how long, and the last error `fn` threw (or that it kept answering no).
 */
export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const start = Date.now();
  let last: unknown;
  let attempts = 0;
  for (;;) {
    attempts += 1;
    try {
      const v = await fn();
      if (v) return v;
      last = undefined; // the latest answer was a plain "not yet"
    } catch (err) {
      last = err;
    }
    if (Date.now() - start > timeoutMs) {
      const why = last ? `; last error: ${(last as Error).message}` : '; it never became true';
      throw new Error(`timed out after ${Date.now() - start} ms (${attempts} attempts) waiting for ${what}${why}`, {
        cause: last,
      });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
