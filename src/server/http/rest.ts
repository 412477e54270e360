import type { Context as HonoContext, Env, Hono } from 'hono';
import type { AnyTRPCRouter } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { Context } from '../rpc/context';
import { AppError, ERROR_STATUS, fail, MESSAGES, type ErrorCode } from '../kernel/errors';
import { describeZodError } from '../rpc/trpc';
import { readValidatorUpload } from './multipart';
import { encodedAnswer, negotiate } from './public-cache';
import type { ResponseCache } from './response-cache';
import { procedureCaller, restRoutes, type RestRoute } from './routes';

/**
 * REST adapters at the spec's exact paths, for scripts, mounted from the procedures'
 * own `meta.rest`. Each calls the same tRPC procedure the browser uses, so validation,
 * rules and errors are identical. The input is whatever the client sent: GET query
 * strings go to the procedure's schema, which coerces numbers, booleans and pages.
 */
export const JSON_ONLY = 'Send the body as JSON with the header Content-Type: application/json.';

/** application/json, with or without parameters (charset). */
export function isJsonContentType(header: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(header ?? '');
}

async function readInput(c: HonoContext, route: RestRoute): Promise<unknown> {
  // A query string is always an object, empty when nothing was sent, so defaults apply.
  if (route.method === 'GET') return c.req.query();
  // A cross-site form can post text/plain (or urlencoded) without a preflight: only a
  // JSON body is read, so such a post is refused before anything runs.
  const type = c.req.header('content-type');
  const text = await c.req.text();
  if (type !== undefined || text.length) {
    if (!isJsonContentType(type)) fail('UNSUPPORTED_MEDIA_TYPE', JSON_ONLY);
  }
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    fail('BAD_REQUEST', 'Malformed JSON body.');
  }
}

/** multipart/form-data, with its parameters (boundary). */
export function isMultipartContentType(header: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(header ?? '');
}

const UPLOAD_REFUSAL = { 400: 'BAD_REQUEST', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' } as const;

/**
 * A multipart route's input: the validators' upload form (the only one), read within its
 * own byte cap from the raw request (nothing else may read the body first).
 */
async function readMultipartInput(c: HonoContext): Promise<unknown> {
  const upload = await readValidatorUpload(c.req.raw);
  if (!upload.ok) fail(UPLOAD_REFUSAL[upload.status], upload.message, upload.error_input);
  return {
    currency: upload.currency,
    package: upload.package || undefined,
    password: upload.password,
    fee_recipient: upload.fee_recipient,
    keystores: upload.keystores.map((k) => ({ name: k.name, text: k.text })),
  };
}

/** The REST answer of a failure: `{success:false, message}` with the status table's code. */
export function restError(err: unknown): { status: number; message: string; error_input?: string } | null {
  if (err instanceof AppError)
    return { status: err.status, message: err.message, ...(err.field ? { error_input: err.field } : {}) };
  // A service's AppError thrown inside a procedure arrives wrapped: keep its field.
  if (err instanceof TRPCError && err.cause instanceof AppError) return restError(err.cause);
  if (err instanceof TRPCError && err.code in ERROR_STATUS) {
    const message = err.cause instanceof ZodError ? describeZodError(err.cause) : err.message;
    const field = err.cause instanceof AppError ? err.cause.field : undefined;
    return { status: ERROR_STATUS[err.code as ErrorCode], message, ...(field ? { error_input: field } : {}) };
  }
  return null;
}

/**
 * Any app's Env: the adapters read no variables of it. `fromAccount`: whether the request
 * comes from a signed-in session or a valid API key, asked before an upload's body is read.
 */
export function mountRest<E extends Env>(
  app: Hono<E>,
  router: AnyTRPCRouter,
  makeContext: (c: HonoContext<E>) => Context,
  cache: ResponseCache,
  fromAccount: (c: HonoContext<E>) => boolean,
) {
  const routes = restRoutes(router);
  const call = procedureCaller(router);
  // A path may have a JSON route and a multipart route of the same method: one handler
  // picks by Content-Type (a multipart body to the JSON route would be refused 415).
  const groups = new Map<string, RestRoute[]>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  for (const group of groups.values()) {
    const json = group.find((r) => !r.multipart);
    const multipart = group.find((r) => r.multipart);
    app.on(group[0].method, group[0].path, async (c) => {
      const ctx = makeContext(c);
      const route = multipart && (!json || isMultipartContentType(c.req.header('content-type'))) ? multipart : json!;
      try {
        // An upload is read and parsed only for a known account (the call budget found it
        // before this handler, from the session or key, without spending the key's rate):
        // a guest's body is never read. The procedure checks the caller again after it.
        if (route.multipart && !fromAccount(c)) fail('UNAUTHORIZED', MESSAGES.unauthorized);
        const input = route.multipart ? await readMultipartInput(c) : await readInput(c, route);
        if (route.csv) {
          const file = (await call(ctx, route.procedure, input, c.req.raw.signal)) as { filename: string; csv: string };
          return c.body(file.csv, 200, {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="${file.filename}"`,
          });
        }
        // A mutation may run long (keystore derivation) and stops when its client goes; a
        // query is a few reads, and the request's AbortSignal (an AbortController in the node
        // adapter) would cost it more than it could save.
        const signal = route.type === 'mutation' ? c.req.raw.signal : undefined;
        const answer = await encodedAnswer(cache, route, input, () => call(ctx, route.procedure, input, signal));
        if (!answer.etag) return c.body(answer.bytes, 200, { 'content-type': 'application/json' });
        // A cached public answer: gzip-compressed for a client that accepts it, and a client
        // that has it already gets 304 and no body (the cache-control of API answers stays
        // security-headers.ts's).
        const out = negotiate(answer, c.req.header('accept-encoding'));
        if (ifNoneMatch(c.req.header('if-none-match'), out.etag!)) {
          const { 'content-type': _, 'content-encoding': __, ...headers } = out.headers;
          return c.body(null, 304, headers);
        }
        return c.body(out.body, 200, out.headers);
      } catch (err) {
        const known = restError(err);
        if (known)
          return c.json(
            {
              success: false,
              message: known.message,
              ...(known.error_input ? { error_input: known.error_input } : {}),
            },
            known.status as 400,
          );
        ctx.log.error('rest call failed', {
          request_id: ctx.req.requestId,
          path: route.path,
          err: err instanceof TRPCError ? (err.cause ?? err) : err,
        });
        return c.json({ success: false, message: MESSAGES.internal }, 500);
      }
    });
  }
  return routes;
}

/** Unknown API paths get JSON, never the SPA. Mounted after every other /api route. */
export function mountApiFallback<E extends Env>(app: Hono<E>, routes: RestRoute[]) {
  for (const base of ['/public_api', '/api']) {
    app.all(`${base}/*`, (c) => {
      const known = routes.some((r) => r.path === c.req.path);
      return known
        ? c.json({ success: false, message: `Method ${c.req.method} is not allowed here.` }, 405)
        : c.json({ success: false, message: `Unknown API call: ${c.req.method} ${c.req.path}` }, 404);
    });
  }
}

/** If-None-Match names `etag` (a list, a weak form, or `*`). */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
