import type { Context as HonoContext, Hono } from 'hono';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { Context } from '../context';
import { MESSAGES } from '../errors';
import type { ResponseCache } from './response-cache';
import { createCaller } from '../router';
import { describeZodError } from '../trpc';

type Caller = ReturnType<typeof createCaller>;

/**
 * REST adapters at the spec's exact paths, for scripts. Each calls the same tRPC
 * procedure the browser uses, so validation, rules and errors are identical. The
 * input is whatever the client sent: the procedure's zod schema is the one check.
 */
type RestRoute = {
  method: 'GET' | 'POST';
  path: string;
  call: (c: Caller, input: any) => Promise<unknown>;
  /** Public, user-independent GETs only: successful bodies are reused this long. */
  cacheMs?: number;
};

export const restRoutes: RestRoute[] = [
  { method: 'POST', path: '/public_api/login', call: (c, i) => c.auth.login(i) },
  { method: 'POST', path: '/public_api/register', call: (c, i) => c.auth.register(i) },
  { method: 'POST', path: '/public_api/recover', call: (c, i) => c.auth.recover(i) },
  { method: 'POST', path: '/public_api/reset', call: (c, i) => c.auth.reset(i) },
  { method: 'POST', path: '/public_api/check_reset_token', call: (c, i) => c.auth.check_reset_token(i) },
  { method: 'POST', path: '/public_api/verify', call: (c, i) => c.auth.verify(i) },
  { method: 'GET', path: '/public_api/status', call: (c) => c.system.status() },
  { method: 'GET', path: '/public_api/get_coins', call: (c) => c.coins.get_coins(), cacheMs: 1000 },
  { method: 'GET', path: '/public_api/get_coin', call: (c, i) => c.coins.get_coin(i), cacheMs: 1000 },
  { method: 'GET', path: '/public_api/get_stats', call: (c) => c.coins.get_stats(), cacheMs: 1000 },
  { method: 'GET', path: '/public_api/get_detailed', call: (c) => c.coins.get_detailed(), cacheMs: 1000 },
  { method: 'GET', path: '/api/get_deploy_info', call: (c, i) => c.coins.get_deploy_info(i) },
  { method: 'GET', path: '/api/get_masternodes', call: (c) => c.nodes.get_masternodes() },
  { method: 'GET', path: '/api/get_masternode', call: (c, i) => c.nodes.get_masternode(i) },
  { method: 'GET', path: '/api/get_common_info', call: (c) => c.auth.get_common_info() },
  { method: 'GET', path: '/api/get_tfa', call: (c) => c.auth.get_tfa() },
  { method: 'POST', path: '/api/logout', call: (c, i) => c.auth.logout(i) },
  { method: 'POST', path: '/api/update_tfa', call: (c, i) => c.auth.update_tfa(i) },
  { method: 'POST', path: '/api/change_password', call: (c, i) => c.auth.change_password(i) },
  { method: 'POST', path: '/api/resend_verification_email', call: (c, i) => c.auth.resend_verification_email(i) },
  { method: 'POST', path: '/api/visited', call: (c, i) => c.auth.visited(i) },
];

class BadBody extends Error {}

async function readInput(c: HonoContext, method: 'GET' | 'POST'): Promise<unknown> {
  if (method === 'GET') {
    const q = c.req.query();
    return Object.keys(q).length ? q : undefined;
  }
  const text = await c.req.text();
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody('Malformed JSON body.');
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Env: the adapters read no variables
export function mountRest(app: Hono<any>, makeContext: (c: HonoContext) => Context, cache: ResponseCache) {
  for (const route of restRoutes) {
    app.on(route.method, route.path, async (c) => {
      const cacheKey = route.cacheMs ? c.req.url.slice(c.req.url.indexOf(route.path)) : '';
      const hit = cacheKey ? cache.get(cacheKey) : undefined;
      if (hit) return c.body(hit, 200, { 'content-type': 'application/json' });
      const ctx = makeContext(c);
      try {
        const input = await readInput(c, route.method);
        const body = JSON.stringify(await route.call(createCaller(ctx), input));
        if (cacheKey) cache.set(cacheKey, body, route.cacheMs!);
        return c.body(body, 200, { 'content-type': 'application/json' });
      } catch (err) {
        if (err instanceof BadBody) return c.json({ success: false, message: err.message }, 400);
        if (err instanceof TRPCError && err.code !== 'INTERNAL_SERVER_ERROR') {
          const message = err.cause instanceof ZodError ? describeZodError(err.cause) : err.message;
          return c.json({ success: false, message }, getHTTPStatusCodeFromError(err) as 400);
        }
        ctx.log.error('rest call failed', { request_id: ctx.req.requestId, path: route.path, err: err instanceof TRPCError ? (err.cause ?? err) : err });
        return c.json({ success: false, message: MESSAGES.internal }, 500);
      }
    });
  }
  // Unknown API paths get JSON, never the SPA.
  for (const base of ['/public_api', '/api']) {
    app.all(`${base}/*`, (c) => {
      const known = restRoutes.some((r) => r.path === c.req.path);
      return known
        ? c.json({ success: false, message: `Method ${c.req.method} is not allowed here.` }, 405)
        : c.json({ success: false, message: `Unknown API call: ${c.req.method} ${c.req.path}` }, 404);
    });
  }
}
