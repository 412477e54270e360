import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
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

/**
 * An answer's bytes; for a cached one also its ETag and, when large enough to gain from
 * it, its gzip-compressed bytes (made once per cached answer, like the rest).
 */
export type EncodedAnswer = { bytes: Buffer<ArrayBuffer>; etag: string | null; gzipped?: Buffer<ArrayBuffer> };

/** Below this an answer is sent as it is: compressing saves less than it costs. */
const GZIP_FROM_BYTES = 1024;

/**
 * Whether an Accept-Encoding header accepts gzip: by its own entry when it has one (q=0
 * refuses it), else by `*` (RFC 9110: `*` stands for the codings not listed).
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star ?? false;
}

/**
 * What to write for an answer: its gzip bytes to a client that accepts them, else the
 * plain ones, with the headers that say which (each form has its own ETag: a cache must
 * not answer one with the other). A cacheable answer says it varies by Accept-Encoding.
 */
export function negotiate(
  answer: EncodedAnswer,
  acceptEncoding: string | undefined,
): { body: Buffer<ArrayBuffer>; etag: string | null; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!answer.gzipped) {
    if (answer.etag) headers.etag = answer.etag;
    return { body: answer.bytes, etag: answer.etag, headers };
  }
  headers.vary = 'Accept-Encoding';
  if (!acceptsGzip(acceptEncoding)) {
    if (answer.etag) headers.etag = answer.etag;
    return { body: answer.bytes, etag: answer.etag, headers };
  }
  const etag = answer.etag && `${answer.etag.slice(0, -1)}-gzip"`;
  headers['content-encoding'] = 'gzip';
  if (etag) headers.etag = etag;
  return { body: answer.gzipped, etag, headers };
}

/**
 * Bytes made once per cached answer (not per request), by a key naming what they wrap:
 * `parts` are the cached JSON strings they were made from, the same string objects for
 * as long as the cache holds them, so checking an entry is a pointer comparison each.
 */
const encoded = new Map<string, { parts: readonly string[]; answer: EncodedAnswer }>();
const MAX_ENCODED = 1000;

function encodeOnce(key: string, parts: readonly string[], text: () => string, etag: boolean): EncodedAnswer {
  const known = encoded.get(key);
  if (known && known.parts.length === parts.length && known.parts.every((p, i) => p === parts[i])) return known.answer;
  const body = text();
  const bytes = Buffer.from(body);
  const answer: EncodedAnswer = {
    bytes,
    etag: etag ? `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` : null,
    ...(bytes.length >= GZIP_FROM_BYTES ? { gzipped: gzipSync(bytes) } : {}),
  };
  if (encoded.size >= MAX_ENCODED) encoded.clear();
  encoded.set(key, { parts, answer });
  return answer;
}

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
  return encodeOnce(`rest\n${key}`, [json], () => json, true);
}

/**
 * The browser's tRPC answer to GETs of cacheable public calls, in tRPC's shape (a batch
 * is an array of `{"result":{"data":…}}`). A single call (what the browser's batch link
 * sends for one query) is encoded once while the cache holds its answer, like the REST
 * bytes, and kept under that one cache key; a batch of several is encoded for its request
 * alone and not kept: its layout is the client's to choose (up to 20 calls in any order),
 * so keeping each would let a client fill memory with layouts.
 */
export async function encodedTrpcAnswer(
  cache: ResponseCache,
  routes: Pick<RestRoute, 'procedure' | 'input' | 'cacheMs'>[],
  rawInputs: unknown[],
  batch: boolean,
  call: (route: number) => Promise<unknown>,
): Promise<EncodedAnswer> {
  const bodies = await Promise.all(routes.map((r, i) => cachedAnswer(cache, r, rawInputs[i], () => call(i))));
  const text = () => {
    const items = bodies.map((b) => `{"result":{"data":${b}}}`);
    return batch ? `[${items.join(',')}]` : items[0];
  };
  const key = routes.length === 1 && routes[0].cacheMs ? publicCacheKey(routes[0], rawInputs[0]) : null;
  if (key === null) return { bytes: Buffer.from(text()), etag: null };
  return encodeOnce(`trpc${batch ? '[]' : ''}\n${key}`, bodies, text, false);
}
