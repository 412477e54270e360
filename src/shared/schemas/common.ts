import { z } from 'zod';

/** Every spec response carries `success`; failures add a human `message`. */
export const okResponse = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;

export const messageResponse = z.object({ success: z.literal(true), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** What REST clients receive for any failure (4xx/5xx). */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const empty = z.object({}).strict();

/*
 * GET inputs arrive as query strings over REST (`?page=2&delisted=false`) and as JSON
 * over tRPC (`{page: 2, delisted: false}`). These pieces accept both, so one schema
 * serves both transports and a GET answers the same either way.
 */

/** A whole number: 2 or "2". */
export const queryInt = z.coerce
  .number<number | string>({ error: 'must be a whole number' })
  .int('must be a whole number');

/** A boolean: true/false, or "true"/"false", "1"/"0", "yes"/"no" from a query string. */
export const queryBool = z.union([
  z.boolean(),
  z.stringbool({ truthy: ['true', '1', 'yes'], falsy: ['false', '0', 'no'] }),
]);

/** A page of a list: `page` from 1, `per_page` 1-100 (20 unless asked). */
export const pageQuery = z
  .object({
    page: queryInt.min(1, 'must be 1 or more').default(1),
    per_page: queryInt.min(1, 'must be 1-100').max(100, 'must be 1-100').default(20),
  })
  .strict();
export type PageQuery = z.infer<typeof pageQuery>;
