import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { queryRetryDelay, shouldRetryQuery } from './retry';

/** An error as the batch link hands it to a query, from the server's answer item. */
const answered = (code: string, httpStatus: number, extra: Record<string, unknown> = {}) =>
  TRPCClientError.from({ error: { message: 'm', code: -32000, data: { code, httpStatus, ...extra } } });

describe('query retries', () => {
  it('asks again after Retry-After when the call budget refused it (429 with retryAfter)', () => {
    const err = answered('TOO_MANY_REQUESTS', 429, { retryAfter: 2 });
    expect(shouldRetryQuery(0, err)).toBe(true);
    expect(shouldRetryQuery(1, err)).toBe(true);
    expect(shouldRetryQuery(2, err)).toBe(false);
    expect(queryRetryDelay(0, err)).toBe(2000);
  });

  it('shows the error at once for a long wait, or a 429 of another limit (login attempts)', () => {
    expect(shouldRetryQuery(0, answered('TOO_MANY_REQUESTS', 429, { retryAfter: 60 }))).toBe(false);
    expect(shouldRetryQuery(0, answered('TOO_MANY_REQUESTS', 429))).toBe(false);
  });

  it('retries server faults with backoff, never other 4xx', () => {
    expect(shouldRetryQuery(0, answered('INTERNAL_SERVER_ERROR', 500))).toBe(true);
    expect(queryRetryDelay(1, answered('INTERNAL_SERVER_ERROR', 500))).toBe(2000);
    expect(shouldRetryQuery(0, answered('BAD_REQUEST', 400))).toBe(false);
  });
});
