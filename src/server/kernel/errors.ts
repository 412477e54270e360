/**
 * The one table from a domain error's code to its HTTP status (docs/decisions.md
 * "Errors and statuses"). The codes are spelled as tRPC spells them, so the tRPC
 * transport passes them through unchanged and tRPC's own status for each is this one
 * (test/unit/errors.test.ts holds the two together); the REST adapter reads this table.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A failure the user should read, raised by services: its message reaches the client
 * as is, its code picks the HTTP status. Anything else thrown is logged in full and
 * answered with a generic message. Knows nothing of tRPC or HTTP, so the CLI and
 * background work handle it too.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The form field the message belongs under (REST `error_input`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function fail(code: ErrorCode, message: string, field?: string): never {
  throw new AppError(code, message, field);
}

export const MESSAGES = {
  unauthorized: 'You are not logged in or your session has expired. Please log in again.',
  maintenance: "We're just tuning up a few things. Please check back in a little while.",
  internal: 'Something went wrong on our side. Please try again in a little while.',
  tooMany: 'Too many attempts. Please wait a while and try again.',
  notFound: 'Not found.',
} as const;
