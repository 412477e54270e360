import { initTRPC } from '@trpc/server';
import { ZodError } from 'zod';
import { resolveSession } from './auth/sessions';
import type { Context } from './context';
import { fail, MESSAGES } from './errors';
import { isMaintenance } from './operator/settings';

export type Meta = {
  /** Private calls answer a maintenance error while maintenance is on, except these. */
  allowInMaintenance?: boolean;
  /** Name used in logs and by the REST adapters. */
  name?: string;
};

/** "username: must be at least 3 characters" from zod 4's issues. */
export function describeZodError(err: ZodError): string {
  return err.issues
    .map((i) => {
      const field = i.path.join('.');
      if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`;
      return field ? `${field}: ${i.message}` : i.message;
    })
    .join('; ');
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const zod = error.cause instanceof ZodError ? error.cause : null;
      const message = zod ? describeZodError(zod) : error.code === 'INTERNAL_SERVER_ERROR' ? MESSAGES.internal : shape.message;
      return {
        ...shape,
        message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          fieldErrors: zod ? zod.flatten().fieldErrors : undefined,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Logs unexpected errors in full; the client only sees the generic message. */
const logged = t.middleware(async ({ ctx, path, type, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR') {
    ctx.log.error('procedure failed', { request_id: ctx.req.requestId, path, type, err: result.error.cause ?? result.error });
  }
  return result;
});

export const publicProcedure = t.procedure.use(logged);

/** After this, `ctx.user` and `ctx.session` are there. */
export const authedProcedure = publicProcedure.use(async ({ ctx, meta, next }) => {
  const found = ctx.token ? await resolveSession(ctx, ctx.token) : null;
  if (!found) fail('UNAUTHORIZED', MESSAGES.unauthorized);
  const maintenance = await isMaintenance(ctx.db);
  if (maintenance && !meta?.allowInMaintenance) fail('SERVICE_UNAVAILABLE', MESSAGES.maintenance);
  return next({ ctx: { ...ctx, user: found.user, session: found.session, maintenance } });
});
