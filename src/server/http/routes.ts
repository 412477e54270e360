import type { AnyTRPCRouter } from '@trpc/server';
import type { ZodType } from 'zod';
import type { Context } from '../rpc/context';
import { authKind, createCallerFactory, type AuthKind, type Meta, type RestMeta } from '../rpc/trpc';

/** One REST route as its procedure declares it (`meta.rest`), with what the docs need. */
export type RestRoute = RestMeta & {
  /** The tRPC path, e.g. coins.get_coin. */
  procedure: string;
  type: 'query' | 'mutation';
  auth: AuthKind;
  input: ZodType | undefined;
  output: ZodType | undefined;
};

type ProcedureDef = { type: string; meta?: Meta; inputs: unknown[]; output?: unknown; middlewares: unknown[] };

/** Every procedure of `router` that declares a REST route, in declaration order. */
export function restRoutes(router: AnyTRPCRouter): RestRoute[] {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDef }>;
  const routes: RestRoute[] = [];
  for (const [name, p] of Object.entries(procedures)) {
    const def = p._def;
    if (!def.meta?.rest) continue;
    if (def.type !== 'query' && def.type !== 'mutation')
      throw new Error(`${name}: only queries and mutations have REST routes`);
    if (def.meta.rest.cacheMs && (def.type !== 'query' || authKind(def.middlewares) !== 'public'))
      throw new Error(`${name}: only public queries may be cached`);
    routes.push({
      ...def.meta.rest,
      procedure: name,
      type: def.type,
      auth: authKind(def.middlewares),
      input: def.inputs[0] as ZodType | undefined,
      output: def.output as ZodType | undefined,
    });
  }
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.path}${r.multipart ? ' multipart' : ''}`;
    if (seen.has(key)) throw new Error(`two procedures declare REST route ${key}`);
    seen.add(key);
  }
  return routes;
}

type CallableProcedure = ((opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: Context;
  type: string;
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>) & { _def: { type: string } };

/**
 * Calls a procedure by its tRPC path with the same middlewares as HTTP, as tRPC's
 * server-side caller does (`createCaller`), minus the caller's proxy: a REST route knows
 * its procedure, so each call skips building a proxy and walking the path through it.
 */
export function procedureCaller(router: AnyTRPCRouter) {
  const procedures = router._def.procedures as Record<string, CallableProcedure>;
  const factory = createCallerFactory(router);
  return (ctx: Context, procedure: string, input: unknown, signal?: AbortSignal): Promise<unknown> => {
    const proc = Object.hasOwn(procedures, procedure) ? procedures[procedure] : undefined;
    if (!proc) {
      // Not a known path: the caller's own answer (NOT_FOUND).
      let fn: any = factory(ctx, signal ? { signal } : undefined);
      for (const part of procedure.split('.')) fn = fn[part];
      return fn(input);
    }
    return proc({
      path: procedure,
      getRawInput: async () => input,
      ctx,
      type: proc._def.type,
      signal,
      batchIndex: 0,
    });
  };
}
