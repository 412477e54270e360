import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Context } from '../rpc/context';
import { ERROR_STATUS } from '../kernel/errors';
import { encodedTrpcAnswer, negotiate } from './public-cache';
import { isJsonContentType, JSON_ONLY } from './rest';
import type { ResponseCache } from './response-cache';
import { procedureCaller, restRoutes, type RestRoute } from './routes';

/**
 * Limits of one tRPC HTTP request. The browser batches what one screen asks for at
 * once (a handful of calls); 20 leaves room. One batch's answer is bounded too, so no
 * request can build a huge answer in memory (a list of 750 coin lists did).
 */
export const MAX_BATCH_CALLS = 20;
export const MAX_BATCH_RESPONSE_BYTES = 4 * 1024 * 1024;

const refuse = (c: HonoContext, code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE', message: string) =>
  c.json({ success: false, message }, ERROR_STATUS[code]);

/** The procedure paths of a tRPC request: /trpc/a.b,c.d?batch=1 → [a.b, c.d]. */
export function callPaths(c: HonoContext, base: string): string[] {
  const rest = c.req.path.slice(base.length + 1);
  return c.req.query('batch') === '1' ? rest.split(',') : [rest];
}

/**
 * Answers built here as bytes whose size was checked (the public cache's): the batch
 * limit does not read them back. Reading a 470 KB answer back as text and wrapping it
 * again cost about 10 ms a request (decode, re-encode, undici's string checks), outside
 * the admission pool, and 300 such requests at once stalled the loop for seconds.
 */
const sized = new WeakSet<Response>();

/**
 * Refuses over-size batches before any work (no context, no procedure), and answers
 * 413 instead of a batch answer over the size cap.
 */
export function batchLimit(base: string): MiddlewareHandler {
  return async (c, next) => {
    const paths = callPaths(c, base);
    if (paths.length > MAX_BATCH_CALLS) {
      return refuse(
        c,
        'BAD_REQUEST',
        `A batch may hold at most ${MAX_BATCH_CALLS} calls; this one holds ${paths.length}. Split it.`,
      );
    }
    await next();
    // (`sized` first: reading `body` turns the adapter's light Response into a full one.)
    if (paths.length < 2 || sized.has(c.res) || !c.res.body) return;
    const text = await c.res.text();
    if (Buffer.byteLength(text) > MAX_BATCH_RESPONSE_BYTES) {
      c.res = undefined;
      c.res = refuse(c, 'PAYLOAD_TOO_LARGE', 'The answer to this batch is too large. Ask for fewer calls at once.');
      return;
    }
    c.res = new Response(text, c.res);
  };
}

/**
 * The browser's tRPC GETs of cacheable public calls (the coin list, stats) come from
 * the same cache as their REST routes, keyed the same way. A batch is served here
 * only when every call in it is cacheable; on any failure the request goes on to the
 * tRPC handler, which answers the error in tRPC's shape.
 */
export function trpcPublicCache(
  base: string,
  router: AnyTRPCRouter,
  cache: ResponseCache,
  makeContext: (c: HonoContext) => Context,
): MiddlewareHandler {
  const cacheable = new Map(
    restRoutes(router)
      .filter((r) => r.cacheMs)
      .map((r) => [r.procedure, r]),
  );
  const call = procedureCaller(router);
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const paths = callPaths(c, base);
    const routes = paths.map((p) => cacheable.get(p));
    if (!routes.every((r): r is RestRoute => r !== undefined)) return next();
    const batch = c.req.query('batch') === '1';
    let inputs: unknown[];
    try {
      const raw = c.req.query('input');
      const parsed = raw === undefined ? undefined : JSON.parse(raw);
      inputs = batch ? paths.map((_, i) => (parsed as Record<string, unknown> | undefined)?.[i]) : [parsed];
    } catch {
      return next();
    }
    let ctx: Context | undefined;
    try {
      // Encoded once per cached answer, inside the caller's admission (the adapter writes the bytes as they are).
      const answer = await encodedTrpcAnswer(cache, routes, inputs, batch, (i) =>
        call((ctx ??= makeContext(c)), routes[i].procedure, inputs[i]),
      );
      if (answer.bytes.length > MAX_BATCH_RESPONSE_BYTES)
        return refuse(c, 'PAYLOAD_TOO_LARGE', 'The answer to this batch is too large. Ask for fewer calls at once.');
      // Gzip-compressed for a browser (they all accept it), made once per cached answer.
      const { body, headers } = negotiate({ ...answer, etag: null }, c.req.header('accept-encoding'));
      const res = c.body(body, 200, headers);
      sized.add(res);
      return res;
    } catch {
      return next();
    }
  };
}

/**
 * tRPC mutations take JSON only. tRPC itself also reads form data and octet streams,
 * which a cross-site form can send without a preflight; nothing here uses them.
 */
export function jsonMutationsOnly(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST' || isJsonContentType(c.req.header('content-type'))) return next();
    return c.json({ success: false, message: JSON_ONLY }, ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE);
  };
}
