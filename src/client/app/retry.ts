import { isServerFault, MAX_AUTO_RETRY_AFTER_MS, retryAfterMs } from './errors';

/**
 * Retrying a 4xx cannot help, except a refusal for the call budget (429 with a short
 * Retry-After: a burst of tabs refetching at once): that one is asked again once the
 * wait is over. A dropped connection or a 5xx might pass on a second try too.
 */
export function shouldRetryQuery(failures: number, err: unknown): boolean {
  const wait = retryAfterMs(err);
  if (wait !== undefined) return failures < 2 && wait <= MAX_AUTO_RETRY_AFTER_MS;
  return failures < 2 && isServerFault(err);
}

/** The server's Retry-After when it gave one; else react-query's own backoff. */
export function queryRetryDelay(failures: number, err: unknown): number {
  return retryAfterMs(err) ?? Math.min(1000 * 2 ** failures, 30_000);
}
