import { TRPCError } from '@trpc/server';

type Code = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE';

/**
 * A failure the user should read. Its message reaches the client as is; the code
 * picks the HTTP status. Anything else thrown is logged in full and answered with a
 * generic message.
 */
export function fail(code: Code, message: string): never {
  throw new TRPCError({ code, message });
}

export const MESSAGES = {
  unauthorized: 'You are not logged in or your session has expired. Please log in again.',
  maintenance: "We're just tuning up a few things. Please check back in a little while.",
  internal: 'Something went wrong on our side. Please try again in a little while.',
  tooMany: 'Too many attempts. Please wait a while and try again.',
} as const;
