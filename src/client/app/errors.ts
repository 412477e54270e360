import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../server/router';

type AppError = TRPCClientError<AppRouter>;

function asAppError(err: unknown): AppError | null {
  return err instanceof TRPCClientError ? (err as AppError) : null;
}

/**
 * True when no tRPC answer came back: the server is down, the network failed, or
 * something in front of the server answered instead (a proxy's HTML 502 has no
 * tRPC error shape either).
 */
export function isUnreachable(err: unknown): boolean {
  const e = asAppError(err);
  return e ? !e.data : err instanceof TypeError;
}

export function errorCode(err: unknown): string | undefined {
  return asAppError(err)?.data?.code;
}

export function isUnauthorized(err: unknown): boolean {
  return errorCode(err) === 'UNAUTHORIZED';
}

/** The human text to show; the server's formatter already made it readable. */
export function errorMessage(err: unknown): string {
  const e = asAppError(err);
  if (e && !e.data) return 'Cannot reach the server. Please check your connection and try again.';
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong. Please try again.';
}

/** The form field a domain error belongs under (the server's `field`, REST's `error_input`), if any. */
export function errorField(err: unknown): string | undefined {
  const field: unknown = asAppError(err)?.data?.field;
  return typeof field === 'string' ? field : undefined;
}

/** Per-field messages from the server's zod validation, first message per field. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  // zod's flatten() is typed loosely on the server ({}); its runtime shape is this.
  const fields: Record<string, string[] | undefined> = asAppError(err)?.data?.fieldErrors ?? {};
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries(fields)) if (messages?.[0]) out[name] = messages[0];
  return out;
}

/** The server is unreachable or failed on its side (5xx): worth the error page at start-up. */
export function isServerFault(err: unknown): boolean {
  if (isUnreachable(err)) return true;
  const status = asAppError(err)?.data?.httpStatus;
  return typeof status === 'number' && status >= 500;
}

/** Longest wait a query retries after by itself; past it the page shows the error and its retry button. */
export const MAX_AUTO_RETRY_AFTER_MS = 10_000;

/**
 * How long the server asked to wait before asking again, when it refused the call for
 * the account's or address's call budget (429 with `retryAfter` seconds); else undefined.
 */
export function retryAfterMs(err: unknown): number | undefined {
  if (errorCode(err) !== 'TOO_MANY_REQUESTS') return undefined;
  const seconds: unknown = (asAppError(err)?.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : undefined;
}
