import type { ResponseCache } from './response-cache';
import type { RestRoute } from './routes';

/**
 * The cache key of a public call: its procedure and the input it reads, after its
 * schema has parsed it. Parameters the call does not read (`?x=<random>`) never reach
 * the key, so they cannot bypass the cache; a call without input has one key. Null
 * when the input does not parse: the procedure answers the error itself.
 */
export function publicCacheKey(route: Pick<RestRoute, 'procedure' | 'input'>, rawInput: unknown): string | null {
  if (!route.input) return route.procedure;
  const parsed = route.input.safeParse(rawInput);
  return parsed.success ? `${route.procedure}\n${JSON.stringify(parsed.data ?? null)}` : null;
}

/**
 * The serialized answer of a cacheable public call, from the cache or computed once
 * and stored. The REST adapter and the browser's tRPC path both come through here,
 * so both are served from one cache.
 */
export async function cachedAnswer(
  cache: ResponseCache,
  route: Pick<RestRoute, 'procedure' | 'input' | 'cacheMs'>,
  rawInput: unknown,
  call: () => Promise<unknown>,
): Promise<string> {
  const key = route.cacheMs ? publicCacheKey(route, rawInput) : null;
  if (!key) return JSON.stringify(await call());
  return cache.getOrCompute(key, route.cacheMs!, async () => JSON.stringify(await call()));
}
