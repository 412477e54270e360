import { setTimeout as pause } from 'node:timers/promises';
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ERROR_STATUS } from '../errors';
import { overBudgetMessage, type CallBudget } from './call-budget';
import { callPaths } from './trpc-http';

/** Who is calling, read from the request alone (no database): its bearer token and address. */
export type CallerOf = (c: HonoContext) => { token: string | null; ip: string };

const TOO_MANY = ERROR_STATUS.TOO_MANY_REQUESTS;

/**
 * A refusal is answered after this pause. Its Retry-After is at least a second, so a
 * client that heeds it loses nothing; one that asks again at once (30 connections did,
 * about 1,500 refusals a second) gets one answer per connection per second, and the
 * refusals stop costing the event loop what the calls would have. Waiting holds only
 * a timer and the connection (at most 256 per address, conn-limit.ts).
 */
export const REFUSAL_PAUSE_MS = 1000;

/**
 * Every tRPC call counts against its payer's budget (http/call-budget.ts), batched or
 * not: a batch of n calls takes n, all or nothing, before any context is built or any
 * call runs. A batch over budget is refused whole: 429 with Retry-After, and in tRPC's
 * shape (one error per call, as the procedure would have answered), so the browser's
 * batch link hands each query its own TOO_MANY_REQUESTS error.
 */
export function trpcCallBudget(base: string, budget: CallBudget, callerOf: CallerOf): MiddlewareHandler {
  return async (c, next) => {
    const paths = callPaths(c, base);
    const { token, ip } = callerOf(c);
    const admission = budget.take(budget.payer(token, ip), paths.length);
    if (!admission.ok) {
      const error = (path: string) => ({
        error: {
          message: overBudgetMessage(admission.retryAfterS),
          code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
          data: { code: 'TOO_MANY_REQUESTS', httpStatus: TOO_MANY, path, retryAfter: admission.retryAfterS },
        },
      });
      const batch = c.req.query('batch') === '1';
      await pause(REFUSAL_PAUSE_MS);
      return c.json(batch ? paths.map(error) : error(paths[0]), TOO_MANY, { 'retry-after': String(admission.retryAfterS) });
    }
    try {
      await next();
    } finally {
      admission.release();
    }
  };
}

/** The same budget for the REST routes: one call per request, refused in the REST shape. */
export function restCallBudget(budget: CallBudget, callerOf: CallerOf): MiddlewareHandler {
  return async (c, next) => {
    const { token, ip } = callerOf(c);
    const admission = budget.take(budget.payer(token, ip), 1);
    if (!admission.ok) {
      await pause(REFUSAL_PAUSE_MS);
      return c.json({ success: false, message: overBudgetMessage(admission.retryAfterS) }, TOO_MANY, { 'retry-after': String(admission.retryAfterS) });
    }
    try {
      await next();
    } finally {
      admission.release();
    }
  };
}
