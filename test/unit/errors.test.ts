import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS, fail, type ErrorCode } from '../../src/server/kernel/errors';
import { restError } from '../../src/server/http/rest';

describe('domain errors', () => {
  it('fail() raises an AppError that knows nothing of tRPC', () => {
    let caught: unknown;
    try {
      fail('CONFLICT', 'taken');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).not.toBeInstanceOf(TRPCError);
    expect(caught).toMatchObject({ code: 'CONFLICT', message: 'taken', status: 409 });
  });

  it('one table: tRPC answers each code with the status the REST adapter uses', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
      expect(getHTTPStatusCodeFromError(new TRPCError({ code, message: 'x' })), code).toBe(status);
      expect(restError(new AppError(code, 'x')), code).toEqual({ status, message: 'x' });
      expect(restError(new TRPCError({ code, message: 'y', cause: new AppError(code, 'y') })), code).toEqual({
        status,
        message: 'y',
      });
    }
  });

  it('anything else is no domain error: the adapters log it and answer 500', () => {
    expect(restError(new Error('db is on fire'))).toBeNull();
    expect(restError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'x' }))).toBeNull();
  });
});
