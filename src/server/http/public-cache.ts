import { createHash } from 'node:crypto';
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

export type EncodedAnswer = { bytes: Buffer<ArrayBuffer>; etag: string | null };

/** The bytes and ETag of each cached answer, made once per answer (not per request). */
const encoded = new Map<string, { json: string; answer: EncodedAnswer }>();
const MAX_ENCODED = 1000;

/**
 * A REST answer ready to write: a cached public answer's bytes and ETag are computed
 * once while the cache holds it, and every request in that time writes the same
 * Buffer; an answer that is not cached is encoded for its request alone (no ETag).
 */
export async function encodedAnswer(
  cache: ResponseCache,
  route: Pick<RestRoute, 'procedure' | 'input' | 'cacheMs'>,
  rawInput: unknown,
  call: () => Promise<unknown>,
): Promise<EncodedAnswer> {
  const key = route.cacheMs ? publicCacheKey(route, rawInput) : null;
  const json = await cachedAnswer(cache, route, rawInput, call);
  if (!key) return { bytes: Buffer.from(json), etag: null };
  const known = encoded.get(key);
  // The same string object while the cache holds the answer: the comparison is one pointer.
  if (known && known.json === json) return known.answer;
  const answer = {
    bytes: Buffer.from(json),
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`,
  };
  if (encoded.size >= MAX_ENCODED) encoded.clear();
  encoded.set(key, { json, answer });
  return answer;
}
