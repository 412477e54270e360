import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

// Compressed answers: the built client's files (brotli and gzip, made at build time,
// vite.config.ts) and the cached public answers (gzip, made once per answer,
// http/public-cache.ts). Raw node:http requests: fetch would decompress by itself and
// hide what came over the wire. Reads the built client (`npm test` builds first).

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${s.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
/** Asks `ask` until `same` holds (both answers from one cache entry, which turns over each second), at most 5 times. */
async function fromOneEntry<T>(ask: () => Promise<T>, same: (t: T) => boolean): Promise<T> {
  let got = await ask();
  for (let i = 1; i < 5 && !same(got); i++) got = await ask();
  expect(same(got), 'five tries all straddled a turnover of the cache').toBe(true);
  return got;
}
const decoded = (r: Raw) =>
  r.headers['content-encoding'] === 'gzip'
    ? zlib.gunzipSync(r.body)
    : r.headers['content-encoding'] === 'br'
      ? zlib.brotliDecompressSync(r.body)
      : r.body;

describe('the built client', () => {
  const entry = fs.readdirSync('dist/client/assets').find((f) => /^index-[\w-]+\.js$/.test(f))!;
  const original = () => fs.readFileSync(`dist/client/assets/${entry}`);

  it('goes to a browser brotli-compressed, to a gzip-only client gzipped, else as it is: the same bytes', async () => {
    const br = await get(`/assets/${entry}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect([br.status, br.headers['content-encoding'], br.headers.vary]).toEqual([200, 'br', 'Accept-Encoding']);
    expect(br.body.length).toBeLessThan(original().length / 3);
    expect(decoded(br).equals(original())).toBe(true);
    const gz = await get(`/assets/${entry}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).equals(original())).toBe(true);
    for (const accept of [undefined, 'identity', 'compress, x-nonsense;;=']) {
      const plain = await get(`/assets/${entry}`, accept ? { 'accept-encoding': accept } : {});
      expect([plain.status, plain.headers['content-encoding'], plain.headers.vary]).toEqual([
        200,
        undefined,
        'Accept-Encoding', // a shared cache must not keep the plain file for every browser
      ]);
      expect(plain.body.equals(original())).toBe(true);
    }
  });
});

describe('cached public answers (get_coins over REST and tRPC)', () => {
  it('gzip-compressed for a client that accepts it, with its own ETag; the same JSON either way', async () => {
    // Both asked within the cache's lifetime, so both are the same answer.
    const [plain, gz] = await fromOneEntry(
      () =>
        Promise.all([
          get('/public_api/get_coins'),
          get('/public_api/get_coins', { 'accept-encoding': 'gzip, deflate, br' }),
        ]),
      ([p, g]) => p.headers.etag === g.headers.etag?.replace('-gzip"', '"'),
    );
    expect([plain.headers['content-encoding'], plain.headers.vary]).toEqual([undefined, 'Accept-Encoding']);
    expect([gz.headers['content-encoding'], gz.headers.vary]).toEqual(['gzip', 'Accept-Encoding']);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    expect(gz.body.length).toBeLessThan(plain.body.length / 3);
    expect(decoded(gz).equals(plain.body)).toBe(true);
    expect(typeof JSON.parse(plain.body.toString()).data.dash.hosted_mns.value).toBe('number');
  });

  it('answers 304 to the tag of the form it would send, not to the other form’s', async () => {
    const [again, other] = await fromOneEntry(
      async () => {
        const tag = (await get('/public_api/get_coins', { 'accept-encoding': 'gzip' })).headers.etag!;
        expect(tag).toMatch(/-gzip"$/);
        return Promise.all([
          get('/public_api/get_coins', { 'accept-encoding': 'gzip', 'if-none-match': tag }),
          get('/public_api/get_coins', { 'if-none-match': tag }), // the plain form has another tag
        ]);
      },
      ([a]) => a.status === 304,
    );
    expect(again.body.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(other.status).toBe(200);
    expect(typeof JSON.parse(other.body.toString()).data.dash.hosted_mns.value).toBe('number');
  });

  it('follows Accept-Encoding as RFC 9110 reads it: q=0 refuses, * stands for what is not listed', async () => {
    for (const [accept, encoding] of [
      ['gzip;q=0, identity', undefined],
      ['gzip;q=0, *', undefined],
      ['*', 'gzip'],
      ['br;q=1, GZIP;q=0.5', 'gzip'],
      ['deflate, br', undefined],
      [';;,=q,gzip;q=abc', undefined],
    ] as const) {
      const r = await get('/public_api/get_coins', { 'accept-encoding': accept });
      expect([r.status, r.headers['content-encoding']], accept).toEqual([200, encoding]);
      expect(typeof JSON.parse(decoded(r).toString()).data.dash.hosted_mns.value).toBe('number');
    }
  });

  it('the browser’s tRPC batch comes gzipped too, with the same data as the REST answer', async () => {
    const input = encodeURIComponent('{}');
    const [rest, trpc] = await fromOneEntry(
      () =>
        Promise.all([
          get('/public_api/get_coins', { 'accept-encoding': 'gzip' }),
          get(`/trpc/coins.get_coins?batch=1&input=${input}`, { 'accept-encoding': 'gzip, deflate, br' }),
        ]),
      // Same answer when the data agree (the cache may turn over between the two).
      ([r, t]) => JSON.stringify(JSON.parse(decoded(t).toString())[0].result.data) === decoded(r).toString(),
    );
    expect(trpc.headers['content-encoding']).toBe('gzip');
    expect(trpc.headers.etag).toBeUndefined();
    const plain = await get(`/trpc/coins.get_coins?batch=1&input=${input}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(typeof JSON.parse(plain.body.toString())[0].result.data.data.dash.hosted_mns.value).toBe('number');
  });

  it('a batch of several calls is encoded for its request alone, as it is: its layout is the client’s to choose', async () => {
    const r = await get(`/trpc/coins.get_coins,coins.get_stats?batch=1&input=${encodeURIComponent('{}')}`, {
      'accept-encoding': 'gzip',
    });
    expect([r.status, r.headers['content-encoding']]).toEqual([200, undefined]);
    const [coins, stats] = JSON.parse(r.body.toString());
    expect(typeof coins.result.data.data.dash.hosted_mns.value).toBe('number');
    expect(stats.result.data).toBeTruthy();
  });
});
