import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { profileProblem, startupOf, type QueryView } from './startup';

/** An error as the batch link hands it to a query, from the server's answer item. */
const answered = (code: string, httpStatus: number) =>
  TRPCClientError.from({ error: { message: code, code: -32000, data: { code, httpStatus, retryAfter: 1 } } });
const unreachable = new TRPCClientError('Failed to fetch');

const pending: QueryView = { isPending: true, isError: false, error: null, data: undefined };
const ok = (data: unknown): QueryView => ({ isPending: false, isError: false, error: null, data });
const failed = (error: unknown): QueryView => ({ isPending: false, isError: true, error, data: undefined });
const status = ok({ maintenance: false });
const profile = ok({ info: { username: 'u' } });

describe('start-up', () => {
  it('waits for the status, and with a token for the profile too', () => {
    expect(startupOf(null, pending, pending).state).toBe('loading');
    expect(startupOf(null, status, pending).state).toBe('ready');
    expect(startupOf('t', status, pending).state).toBe('loading');
    expect(startupOf('t', status, profile).state).toBe('ready');
  });

  it('fails on an unreachable server or a refused status, with that error', () => {
    expect(startupOf(null, failed(unreachable), pending)).toEqual({ state: 'failed', error: unreachable });
    const refused = answered('TOO_MANY_REQUESTS', 429);
    expect(startupOf(null, failed(refused), pending)).toEqual({ state: 'failed', error: refused });
  });

  it('fails on a refused profile instead of starting as a visitor, but a 401 starts as one', () => {
    const refused = answered('TOO_MANY_REQUESTS', 429);
    expect(startupOf('t', status, failed(refused))).toEqual({ state: 'failed', error: refused });
    expect(startupOf('t', status, failed(answered('INTERNAL_SERVER_ERROR', 500))).state).toBe('failed');
    expect(startupOf('t', status, failed(answered('UNAUTHORIZED', 401))).state).toBe('ready');
  });
});

describe('a stored token whose profile did not load', () => {
  it('is a problem to show when refused or unreachable, not when the session ended or the data is there', () => {
    const refused = answered('TOO_MANY_REQUESTS', 429);
    expect(profileProblem('t', failed(refused))).toBe(refused);
    expect(profileProblem('t', failed(unreachable))).toBe(unreachable);
    expect(profileProblem('t', failed(answered('UNAUTHORIZED', 401)))).toBeNull();
    // A failed refetch keeps the profile on screen.
    expect(profileProblem('t', { ...failed(refused), data: { info: {} } })).toBeNull();
    expect(profileProblem('t', pending)).toBeNull();
    expect(profileProblem(null, failed(refused))).toBeNull();
  });
});
