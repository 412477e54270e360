import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { trpcServer } from '@hono/trpc-server';
import type { AppDeps, CallerChecks, Context } from './rpc/context';
import { bearerToken, clientIp, createContext } from './rpc/context';
import { withLogFields } from './kernel/log';
import type { Readiness } from './ops/readiness';
import { API_DOCS_CSS, apiDocsHtml } from './http/api-docs';
import { openApiDocument } from './http/openapi';
import { MAX_UPLOAD_BYTES, UPLOAD_BODY_TOO_LARGE } from '../shared/validator-upload';
import { isMultipartContentType, mountApiFallback, mountRest } from './http/rest';
import { restRoutes } from './http/routes';
import type { ResponseCache } from './http/response-cache';
import { sameSecret } from './http/same-secret';
import { securityHeaders } from './http/security-headers';
import { batchLimit, jsonMutationsOnly, MAX_BATCH_CALLS, trpcPublicCache } from './http/trpc-http';
import { addressPayer, CallBudget } from './guards/call-budget';
import { apiKeyOwner, looksLikeApiKey, resolveApiKey } from './apikeys/keys';
import { resolveSession, sessionOwner } from './auth/sessions';
import { isMaintenance } from './operator/settings';
import { restCallBudget, trpcCallBudget, type CallerOf, type PayerEnv } from './http/call-budget-gate';
import { mountUnsubscribe } from './notifications/unsubscribe-http';
import { mountStripeWebhook, STRIPE_WEBHOOK_PATH } from './billing/card/webhook-http';
import { appRouter } from './router';

export const TRPC_PATH = '/trpc';
export const WS_PATH = '/live';

type Env = { Variables: { requestId: string } & PayerEnv['Variables'] };

/** A request id our own proxy may hand us: short, and safe to echo in a header and a log line. */
const REQUEST_ID = /^[\w.:-]{8,64}$/;

/**
 * The request's id: the one a trusted proxy in front sent (TRUST_PROXY set), so a request
 * is followed through the proxy's logs and ours alike, else a fresh one. From anyone else
 * the header is ignored: a client could otherwise make its requests look like another's.
 */
export function requestIdOf(header: string | undefined, trustProxy: number): string {
  return trustProxy > 0 && header && REQUEST_ID.test(header) ? header : randomUUID();
}

/** The procedure builders' questions about a caller, answered by the domains that own them (AppDeps.callers). */
export const callerChecks: CallerChecks = {
  isApiKey: looksLikeApiKey,
  session: resolveSession,
  apiKey: resolveApiKey,
  maintenance: (ctx) => isMaintenance(ctx.db),
};

function remoteAddress(c: HonoContext): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // Not served by node (app.request in tests): no socket to read.
  }
}

/** Assembled in order: request id + log, health, tRPC, REST, static assets, SPA fallback. */
export type AppOptions = {
  state: { ready: boolean };
  cache: ResponseCache;
  logosDir: string;
  metrics?: Registry;
  readiness?: () => Promise<Readiness>;
};

export function createApp(deps: AppDeps, { state, cache, logosDir, metrics, readiness }: AppOptions) {
  const app = new Hono<Env>();
  // API calls' budgets per account or address (guards/call-budget.ts): a bearer token pays
  // for the account it signs in now, looked up as the auth does.
  const budget = new CallBudget({
    ownerOf: (token, ip, request) =>
      looksLikeApiKey(token) ? apiKeyOwner(deps.db, token, ip) : sessionOwner(deps.db, token, request),
  });
  const callerOf: CallerOf = (c) => ({
    token: bearerToken(c.req.header('authorization')),
    ip: clientIp(remoteAddress(c), c.req.header('x-forwarded-for'), deps.config.trustProxy),
  });
  const makeContext = (c: HonoContext): Context =>
    createContext(deps, {
      remoteAddress: remoteAddress(c),
      header: (name) => c.req.header(name),
      requestId: c.get('requestId'),
      request: c.req.raw,
      // The payer the budget gate charged; every API route passes one.
      turns: budget.turnsFor((c as HonoContext<Env>).get('callPayer') ?? addressPayer(callerOf(c).ip).key),
    });

  app.use('*', async (c, next) => {
    const id = requestIdOf(c.req.header('x-request-id'), deps.config.trustProxy);
    c.set('requestId', id);
    c.header('x-request-id', id);
    const start = performance.now();
    // Every line logged while this request is handled carries its id (log.ts scope).
    await withLogFields({ request_id: id }, next);
    // Handlers that build their own Response (tRPC, static files) drop what was set above.
    if (c.res.headers.get('x-request-id') !== id) {
      try {
        c.res.headers.set('x-request-id', id);
      } catch {
        c.res = new Response(c.res.body, c.res); // immutable headers (a fetched Response)
        c.res.headers.set('x-request-id', id);
      }
    }
    if (c.req.path !== '/healthz' && c.req.path !== '/readyz') {
      deps.log.info('request', {
        request_id: id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
      });
    }
  });

  app.use('*', securityHeaders(deps.config));

  // Liveness: the process answers; no database, no loop (a probe that restarts the process must stay cheap).
  app.get('/healthz', (c) => (state.ready ? c.json({ ok: true }) : c.json({ ok: false }, 503)));
  // Readiness: the database takes a write, migrations are current, every loop turns (ops/readiness.ts).
  app.get('/readyz', async (c) => {
    c.header('cache-control', 'no-store');
    if (!state.ready || !readiness)
      return c.json(
        { ok: false, failed: ['server'], checks: { server: { ok: false, error: 'starting or stopping' } } },
        503,
      );
    const result = await readiness();
    return c.json(result, result.ok ? 200 : 503);
  });

  // Prometheus metrics for the operator, behind OPERATOR_TOKEN (unset: disabled).
  app.get('/metrics', async (c) => {
    const token = deps.config.operatorToken;
    if (!token || !metrics) return c.text('metrics are disabled: set OPERATOR_TOKEN', 404);
    if (!sameSecret(bearerToken(c.req.header('authorization')) ?? '', token))
      return c.text('operator token required', 401);
    return c.text(await metrics.metrics(), 200, { 'content-type': metrics.contentType });
  });

  const limitBody = bodyLimit({
    maxSize: 64 * 1024,
    // The rest of the body is never read: the connection closes after the answer, so a
    // client does not send its next request down it (it would meet a closed socket).
    onError: (c) =>
      c.json({ success: false, message: 'Request body is too large (64 KiB at most).' }, 413, { connection: 'close' }),
  });
  // Only for requests with a body: touching the body makes the node adapter build a
  // full fetch Request, which costs a GET more than the rest of its handling.
  const apiLimit: typeof limitBody = (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next);
  // The validators' upload: the multipart route's reader has its own cap (http/multipart.ts);
  // from the browser the same files come as JSON strings (a JSON file's quotes and line
  // breaks escape to two bytes), alone in their request.
  const limitUploadJson = bodyLimit({
    maxSize: 2 * MAX_UPLOAD_BYTES,
    onError: (c) => c.json({ success: false, message: UPLOAD_BODY_TOO_LARGE }, 413, { connection: 'close' }),
  });
  // Which calls are uploads is the procedures' own declaration (`meta.rest.multipart`).
  const uploads = restRoutes(appRouter).filter((r) => r.multipart);
  const uploadProcedures = new Set(uploads.map((r) => `${TRPC_PATH}/${r.procedure}`));
  const isUploadProcedure = (c: HonoContext) => uploadProcedures.has(c.req.path);
  // The budget passes a multipart body to an upload path whatever its method; the body limit only the route's own.
  const isMultipartUpload = (c: HonoContext, method?: string) =>
    uploads.some((r) => r.path === c.req.path && (method === undefined || r.method === method)) &&
    isMultipartContentType(c.req.header('content-type'));
  app.use(`${TRPC_PATH}/*`, (c, next) =>
    c.req.method === 'POST' && isUploadProcedure(c) ? limitUploadJson(c, next) : apiLimit(c, next),
  );
  app.use('/api/*', (c, next) => (isMultipartUpload(c, c.req.method) ? next() : apiLimit(c, next)));
  app.use('/public_api/*', apiLimit);

  app.use(`${TRPC_PATH}/*`, batchLimit(TRPC_PATH));
  // Keystore uploads wait on key derivation (its own fair queue), not on the loop: outside the admission pools.
  app.use(`${TRPC_PATH}/*`, trpcCallBudget(TRPC_PATH, budget, callerOf, isUploadProcedure));
  // Stripe's signed deliveries are money events, never refused for their rate.
  const restBudget = restCallBudget<Env>(budget, callerOf, (c) => isMultipartUpload(c));
  app.use('/api/*', (c, next) => (c.req.path === STRIPE_WEBHOOK_PATH ? next() : restBudget(c, next)));
  app.use('/public_api/*', restBudget);
  app.use(`${TRPC_PATH}/*`, jsonMutationsOnly());
  app.use(`${TRPC_PATH}/*`, trpcPublicCache(TRPC_PATH, appRouter, cache, makeContext));
  app.use(
    `${TRPC_PATH}/*`,
    trpcServer({
      router: appRouter,
      endpoint: TRPC_PATH,
      maxBatchSize: MAX_BATCH_CALLS,
      createContext: (_opts, c) => makeContext(c as HonoContext),
    }),
  );

  // The REST budget (restBudget, before every REST route) has resolved the caller: an account or an address.
  const routes = mountRest(
    app,
    appRouter,
    makeContext,
    cache,
    (c) => c.get('callPayer')?.startsWith('account:') === true,
  );
  // For script authors: the same declarations, as OpenAPI 3.1 and as a page.
  let openapi: string | undefined;
  let docsPage: string | undefined;
  app.get('/api/openapi.json', (c) =>
    c.body((openapi ??= JSON.stringify(openApiDocument(routes, deps.config.publicUrl))), 200, {
      'content-type': 'application/json',
    }),
  );
  app.get('/api/docs', (c) => c.html((docsPage ??= apiDocsHtml(routes))));
  app.get('/api/docs.css', (c) => c.body(API_DOCS_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }));
  mountUnsubscribe(app, deps);
  mountStripeWebhook(app, deps);
  mountApiFallback(app, routes);

  // Coin logos: one local file per coin (catalog/logos), unless COIN_LOGO_URL points elsewhere.
  app.use('/logos/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('cache-control', 'public, max-age=86400');
  });
  app.use('/logos/*', serveStatic({ root: logosDir, rewriteRequestPath: (p) => p.replace(/^\/logos/, '') }));

  const root = deps.config.clientDir;
  const indexFile = path.join(root, 'index.html');
  let indexHtml: string | undefined;
  // Hashed bundles never change under their name: cache them for a year.
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    c.header('cache-control', 'public, max-age=31536000, immutable');
    // The plain file varies by Accept-Encoding too (the handler says so only when it sends a
    // compressed one): a shared cache must not keep it for every browser.
    if (!c.res.headers.has('vary')) c.header('vary', 'Accept-Encoding');
  });
  // The build writes each script and stylesheet also brotli- and gzip-compressed
  // (vite.config.ts): a browser that accepts one gets it, with Vary: Accept-Encoding.
  app.use('*', serveStatic({ root, precompressed: true }));
  app.get('*', (c) => {
    if (path.extname(c.req.path) || c.req.path.startsWith(TRPC_PATH) || c.req.path === WS_PATH)
      return c.text('Not found', 404);
    indexHtml ??= fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : undefined;
    if (!indexHtml) return c.text('The web client is not built. Run `npm run build` first.', 503);
    c.header('cache-control', 'no-cache');
    return c.html(indexHtml);
  });
  app.notFound((c) => c.text('Not found', 404));
  return app;
}
