import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import type { Context } from './context';
import type { Session, User } from '../db/schema';
import { AppError, fail, MESSAGES } from '../kernel/errors';
import { CONSOLE_NEEDS_2FA } from '../../shared/console';
import type { OperatorActor } from '../kernel/actor';
import { describeZodIssues } from '../../shared/zod-issues';
import { currentRequestId, withLogFields } from '../kernel/log';

/**
 * How a procedure is reached over REST, declared once on the procedure. The REST
 * adapter, the OpenAPI document, /api/docs and docs/api.md are all read from it.
 */
export type RestMeta = {
  method: 'GET' | 'POST';
  /** The spec's path, e.g. /public_api/get_coins. */
  path: string;
  /** What the call answers, for the docs (one line, markdown). */
  summary: string;
  /**
   * Public, user-independent queries only: the serialized answer is reused this long,
   * keyed on the procedure and its parsed input (http/public-cache.ts).
   */
  cacheMs?: number;
  /**
   * The route takes multipart/form-data (file uploads) and shares its path with the JSON
   * route of the same method: the adapter picks by Content-Type (http/multipart.ts).
   */
  multipart?: boolean;
  /**
   * The procedure answers `{filename, csv}`: the REST route sends the CSV itself
   * (`text/csv`, a download named `filename`), what a script or `curl -o` wants.
   */
  csv?: boolean;
};

export type Meta = {
  /** Private calls answer a maintenance error while maintenance is on, except these. */
  allowInMaintenance?: boolean;
  /** Name used in logs and by the REST adapters. */
  name?: string;
  rest?: RestMeta;
};

/** "username: must be at least 3 characters" from zod 4's issues (the forms say it the same way). */
export function describeZodError(err: ZodError): string {
  return describeZodIssues(err.issues);
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const zod = error.cause instanceof ZodError ? error.cause : null;
      // A domain error raised while a subscription streams never passes the transport
      // middleware (it runs after the procedure returned): map it here too.
      const app = error.cause instanceof AppError ? error.cause : null;
      const message = zod
        ? describeZodError(zod)
        : app
          ? app.message
          : error.code === 'INTERNAL_SERVER_ERROR'
            ? MESSAGES.internal
            : shape.message;
      return {
        ...shape,
        code: app ? TRPC_ERROR_CODES_BY_KEY[app.code] : shape.code,
        message,
        data: {
          code: app ? app.code : shape.data.code,
          httpStatus: app ? app.status : shape.data.httpStatus,
          fieldErrors: zod ? zod.flatten().fieldErrors : undefined,
          /** The form field a domain error belongs under (REST's `error_input`). */
          field: app?.field,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The tRPC transport's side of domain errors: an AppError becomes the TRPCError of
 * the same code (errors.ts keeps the codes tRPC's, so the status is the table's).
 * Unexpected errors are logged in full; the client only sees the generic message.
 */
const transport = t.middleware(async ({ ctx, path, type, next }) => {
  // Over HTTP these meet the batch cap and the public cache; on the socket nothing
  // would bound them (src/server/rpc/README.md).
  if (ctx.req.live && type !== 'subscription') throw new TRPCError({ code: 'BAD_REQUEST', message: LIVE_ONLY });
  // One payer's HTTP calls take turns, so a batch gives the event loop back between its
  // calls (guards/call-turns.ts); the turn is held until the call's answer is ready.
  const done = ctx.req.turns && type !== 'subscription' ? await ctx.req.turns.take() : undefined;
  let result: Awaited<ReturnType<typeof next>>;
  try {
    // The HTTP middleware scoped this already (a second scope would cost every call an
    // AsyncLocalStorage run); a websocket message or a direct caller has only its context.
    result =
      currentRequestId() === ctx.req.requestId
        ? await next()
        : await withLogFields({ request_id: ctx.req.requestId }, next);
  } finally {
    done?.();
  }
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) throw new TRPCError({ code: cause.code, message: cause.message, cause });
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.log.error('procedure failed', { request_id: ctx.req.requestId, path, type, err: cause ?? result.error });
    }
  }
  return result;
});

export const LIVE_ONLY = 'The live connection serves subscriptions only; send queries and mutations over HTTP.';

export const publicProcedure = t.procedure.use(transport);

async function checkMaintenance(ctx: Context, allowInMaintenance: boolean | undefined): Promise<boolean> {
  const maintenance = await ctx.callers.maintenance(ctx);
  if (maintenance && !allowInMaintenance) fail('SERVICE_UNAVAILABLE', MESSAGES.maintenance);
  return maintenance;
}

/** A logged-in browser session. After this, `ctx.user` and `ctx.session` are there. */
export const sessionAuth = t.middleware(async ({ ctx, meta, next }) => {
  if (ctx.token && ctx.callers.isApiKey(ctx.token))
    fail('FORBIDDEN', 'API keys cannot make this call; it needs a login session.');
  const found = ctx.token ? await ctx.callers.session(ctx, ctx.token) : null;
  if (!found) fail('UNAUTHORIZED', MESSAGES.unauthorized);
  const maintenance = await checkMaintenance(ctx, meta?.allowInMaintenance);
  // Only what is new: tRPC merges it over the context itself (a copy of every key costs each call).
  return next({ ctx: { user: found.user, session: found.session, maintenance } });
});

/**
 * A session or an API key (checked against its IP allow list): the calls a script may
 * make (src/server/apikeys/README.md). After this, `ctx.user` is there and
 * `ctx.session` is the session, or null for a key.
 */
export const sessionOrKeyAuth = t.middleware(async ({ ctx, meta, type, next }) => {
  let found: { user: User; session: Session | null } | null = null;
  if (ctx.token && ctx.callers.isApiKey(ctx.token)) {
    const key = await ctx.callers.apiKey(ctx, ctx.token);
    if (key?.key.read_only && type === 'mutation')
      fail(
        'FORBIDDEN',
        'This API key is read-only: it may only read (GET calls). Use a key with write access for this call.',
      );
    if (key) found = { user: key.user, session: null };
  } else if (ctx.token) {
    found = await ctx.callers.session(ctx, ctx.token);
  }
  if (!found) fail('UNAUTHORIZED', MESSAGES.unauthorized);
  const maintenance = await checkMaintenance(ctx, meta?.allowInMaintenance);
  // Only what is new: tRPC merges it over the context itself (a copy of every key costs each call).
  return next({ ctx: { user: found.user, session: found.session, maintenance } });
});

/** Session only: account security and everything a browser alone does. */
export const authedProcedure = publicProcedure.use(sessionAuth);

/** Session or API key: the /api calls scripts make. */
export const scriptProcedure = publicProcedure.use(sessionOrKeyAuth);

/**
 * The operator console's procedures: a browser session of an operator whose 2FA is on.
 * Anyone else (a guest, a customer, any API key, even an operator's own) gets
 * NOT_FOUND, the answer an unknown call gets, so the console's calls do not announce
 * themselves; an operator without 2FA gets NOT_FOUND with CONSOLE_NEEDS_2FA as the
 * message. Maintenance does not stop them (the console is where it is switched off).
 * After this, `ctx.user` is the operator and `ctx.by` the actor for `logOperatorAction`.
 */
export const operatorAuth = t.middleware(async ({ ctx, next }) => {
  const found = ctx.token && !ctx.callers.isApiKey(ctx.token) ? await ctx.callers.session(ctx, ctx.token) : null;
  if (!found || found.user.role !== 'operator') fail('NOT_FOUND', MESSAGES.notFound);
  if (!found.user.tfa_enabled) fail('NOT_FOUND', CONSOLE_NEEDS_2FA);
  const { user, session } = found;
  const by: OperatorActor = { kind: 'operator', userId: user.id, username: user.username, ip: ctx.req.ip };
  return next({
    ctx: {
      user: { ...user, role: 'operator' as const },
      session,
      maintenance: await ctx.callers.maintenance(ctx),
      by,
    },
  });
});

export const operatorProcedure = publicProcedure.use(operatorAuth);

/** How a procedure authenticates, read from its middlewares (for the REST docs). */
export type AuthKind = 'public' | 'session' | 'session-or-key';
export function authKind(middlewares: readonly unknown[]): AuthKind {
  const fns = middlewares as unknown[];
  const has = (m: { _middlewares: unknown[] }) => m._middlewares.some((f) => fns.includes(f));
  if (has(sessionOrKeyAuth)) return 'session-or-key';
  if (has(sessionAuth)) return 'session';
  return 'public';
}
