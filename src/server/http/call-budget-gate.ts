import { setTimeout as pause } from 'node:timers/promises';
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ERROR_STATUS } from '../kernel/errors';
import { overBudgetMessage, serverBusyMessage, type CallBudget, type Payer } from '../guards/call-budget';
import { callPaths } from './trpc-http';

/** Who is calling, read from the request alone (no database): its bearer token and address. */
export type CallerOf = (c: HonoContext) => { token: string | null; ip: string };

const TOO_MANY = ERROR_STATUS.TOO_MANY_REQUESTS;

/** What the gates leave on the Hono context: who paid, so the calls take that payer's turns. */
export type PayerEnv = { Variables: { callPayer: string } };

/**
 * A refusal is answered after this pause. A client that heeds Retry-After (what is
 * left of the wait after the pause) loses nothing; one that asks again at once (30
 * connections did, about 1,500 refusals a second) gets one answer per connection per
 * second, and the refusals stop costing the event loop what the calls would have.
 * Waiting holds a timer and the connection: at most MAX_PAUSED_REFUSALS per payer
 * (call-budget.ts), further refusals answer at once; the pause ends when the client
 * closes the connection.
 */
export const REFUSAL_PAUSE_MS = 1000;

/** Pauses the refusal (when the payer may still hold one), then answers it with the wait left. */
async function refuse(
  c: HonoContext,
  budget: CallBudget,
  payerKey: string,
  retryAfterS: number,
  answer: (retryAfterS: number) => Response,
): Promise<Response> {
  const end = budget.holdRefusal(payerKey);
  if (!end) return answer(retryAfterS);
  try {
    await pause(REFUSAL_PAUSE_MS, undefined, { signal: c.req.raw.signal });
  } catch {
    return answer(retryAfterS); // the client left: nothing more to wait for
  } finally {
    end();
  }
  return answer(Math.max(1, retryAfterS - REFUSAL_PAUSE_MS / 1000));
}

/**
 * Requests that wait mostly on something other than the event loop for long (a keystore
 * upload waits its turn for key derivation, which has its own fair queue) skip the
 * admission pool: holding a place for a minute they would keep everyone else waiting.
 */
export type Unpooled = (c: HonoContext) => boolean;

const BODY_CUT = 'The request body did not arrive whole. Please send the request again.';

/** A refusal by the admission pool: wait a second (the line moves in well under that). */
export const BUSY_RETRY_AFTER_S = 1;

/**
 * Charges the payer's budget (refused: after a pause), then takes a place in its
 * admission pool (refused: at once, the calls handed back), then handles the request.
 * `answer` builds a refusal in the route's shape.
 */
async function admit(
  c: HonoContext,
  next: () => Promise<void>,
  budget: CallBudget,
  payer: Payer,
  calls: number,
  answer: (retryAfterS: number, message: string) => Response,
  unpooled?: Unpooled,
): Promise<Response | void> {
  const admission = budget.take(payer, calls);
  if (!admission.ok) return refuse(c, budget, payer.key, admission.retryAfterS, (s) => answer(s, overBudgetMessage(s)));
  const pooled = !unpooled?.(c);
  // The body is read before a place in the pool is taken: a body that never comes (one
  // guest's eight POSTs with a Content-Length and no bytes) held a place each until the
  // server's request timeout, and every other guest waited out the pool's line and got
  // 429. Reading it holds only the payer's own budget. Hono keeps the text, and the
  // procedure's adapter and the REST routes read it from there.
  if (pooled && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    try {
      await c.req.text();
    } catch {
      // The client went away mid-body (or sent less than it announced); the body limit's
      // middleware, before this one, has checked the announced length.
      admission.release(true);
      return c.json({ success: false, message: BODY_CUT }, 400);
    }
  }
  const entry = pooled
    ? await budget.enter(payer, calls, () => c.req.raw.signal)
    : { ok: true as const, leave: () => {} };
  if (!entry.ok) {
    admission.release(true);
    return answer(BUSY_RETRY_AFTER_S, serverBusyMessage(BUSY_RETRY_AFTER_S));
  }
  try {
    await next();
  } finally {
    entry.leave();
    admission.release();
  }
}

/**
 * tRPC streams its answer when asked for JSON lines (`trpc-accept: application/jsonl`,
 * or without that header an Accept listing it, as tRPC reads them): the Response comes
 * back before any call ran, so the budget's in-flight count would be released at once.
 * The app's client asks plain JSON batches only (httpBatchLink), so such a request is
 * refused.
 */
const wantsJsonLines = (c: HonoContext) =>
  (c.req.header('trpc-accept') ??
    (c.req
      .header('accept')
      ?.split(',')
      .some((t) => t.trim() === 'application/jsonl')
      ? 'application/jsonl'
      : null)) === 'application/jsonl';
const STREAM_REFUSED =
  'This server answers tRPC calls as plain JSON only, not as a stream: send the request without asking for application/jsonl.';

/**
 * Every tRPC call counts against its payer's budget (guards/call-budget.ts), batched or
 * not: a batch of n calls takes n, all or nothing, before any context is built or any
 * call runs. A batch over budget is refused whole: 429 with Retry-After, and in tRPC's
 * shape (one error per call, as the procedure would have answered), so the browser's
 * batch link hands each query its own TOO_MANY_REQUESTS error.
 */
export function trpcCallBudget<E extends PayerEnv>(
  base: string,
  budget: CallBudget,
  callerOf: CallerOf,
  unpooled?: Unpooled,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const paths = callPaths(c, base);
    const batch = c.req.query('batch') === '1';
    if (wantsJsonLines(c)) {
      const error = (path: string) => ({
        error: {
          message: STREAM_REFUSED,
          code: TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST,
          data: { code: 'BAD_REQUEST', httpStatus: 400, path },
        },
      });
      return c.json(batch ? paths.map(error) : error(paths[0]), 400);
    }
    const { token, ip } = callerOf(c);
    const payer = await budget.payer(token, ip, c.req.raw);
    c.set('callPayer', payer.key);
    return admit(
      c,
      next,
      budget,
      payer,
      paths.length,
      (retryAfterS, message) => {
        const error = (path: string) => ({
          error: {
            message,
            code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
            data: { code: 'TOO_MANY_REQUESTS', httpStatus: TOO_MANY, path, retryAfter: retryAfterS },
          },
        });
        return c.json(batch ? paths.map(error) : error(paths[0]), TOO_MANY, { 'retry-after': String(retryAfterS) });
      },
      unpooled,
    );
  };
}

/** The same budget for the REST routes: one call per request, refused in the REST shape. */
export function restCallBudget<E extends PayerEnv>(
  budget: CallBudget,
  callerOf: CallerOf,
  unpooled?: Unpooled,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const { token, ip } = callerOf(c);
    const payer = await budget.payer(token, ip, c.req.raw);
    c.set('callPayer', payer.key);
    return admit(
      c,
      next,
      budget,
      payer,
      1,
      (retryAfterS, message) => c.json({ success: false, message }, TOO_MANY, { 'retry-after': String(retryAfterS) }),
      unpooled,
    );
  };
}
