import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

describe('cached public answers carry an ETag (http/public-cache.ts)', () => {
  it('a client that has the answer gets 304 without a body; any other tag gets the answer', async () => {
    const first = await fetch(`${s.url}/public_api/get_coins`);
    const body = await first.text();
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[\w-]{32}(-gzip)?"$/); // fetch accepts gzip
    // Within the cache's second the same bytes come back; asked with their tag, none do.
    const again = await fetch(`${s.url}/public_api/get_coins`, { headers: { 'if-none-match': etag! } });
    if (again.headers.get('etag') === etag) {
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    } else {
      expect(again.status).toBe(200); // the cache turned over in between: a new answer, a new tag
    }
    const other = await fetch(`${s.url}/public_api/get_coins`, { headers: { 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
    expect(Object.keys(JSON.parse(await other.text()).data)).toEqual(Object.keys(JSON.parse(body).data));
  });

  it('a private answer has no ETag', async () => {
    const r = await fetch(`${s.url}/api/get_common_info`);
    expect(r.headers.get('etag')).toBeNull();
  });
});
