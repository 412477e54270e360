import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { newUserInput } from '../support/users';

// One request followed through the logs: the HTTP line, the procedure's own line, and the
// lines of the jobs it queued (the verification mail), all with the request's id.

type Line = { msg: string; request_id?: string; [k: string]: unknown };
const parsed = (s: TestServer): Line[] => s.logLines.map((l) => JSON.parse(l) as Line);

async function register(s: TestServer, headers: Record<string, string> = {}) {
  const input = newUserInput('rid');
  const res = await fetch(`${s.url}/trpc/auth.register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
  expect(res.status).toBe(200);
  return { input, id: res.headers.get('x-request-id') };
}

async function until<T>(what: string, f: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('request id behind a trusted proxy (TRUST_PROXY=1)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TRUST_PROXY: '1' });
  });
  afterAll(() => stopTestServer(s));

  it("takes the proxy's id and writes it on every line of the request, the procedure and the jobs it queued", async () => {
    const proxyId = 'edge-7f3a9c21-0001';
    const { input, id } = await register(s, { 'x-request-id': proxyId });
    expect(id).toBe(proxyId);
    // The procedure's own line: written without naming the id (the scope adds it).
    const registered = await until('user registered', () =>
      parsed(s).find((l) => l.msg === 'user registered' && l.request_id === proxyId),
    );
    expect(registered.user_id).toBeTypeOf('number');
    expect(
      parsed(s).find((l) => l.msg === 'request' && l.path === '/trpc/auth.register' && l.request_id === proxyId)
        ?.status,
    ).toBe(200);
    // The verification mail: queued by the request, rendered and "sent" by the job runner later.
    const mailed = await until('the mail job', () =>
      parsed(s).find((l) => l.msg.startsWith('mail (no SMTP_URL') && l.to === input.email),
    );
    expect(mailed.request_id).toBe(proxyId);
    const sent = await until('mail sent', () =>
      parsed(s).find((l) => l.msg === 'mail sent' && l.request_id === proxyId),
    );
    expect(sent.job).toBeUndefined(); // fields of the scope only, nothing else leaks in
    // A second request's lines have its own id, not the first's.
    const other = await register(s, { 'x-request-id': 'edge-7f3a9c21-0002' });
    expect(other.id).toBe('edge-7f3a9c21-0002');
    const users = parsed(s).filter((l) => l.msg === 'user registered');
    expect(users.map((l) => l.request_id)).toEqual([proxyId, other.id]);
  });

  it('refuses a proxy id of the wrong shape and makes its own', async () => {
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(65), 'semi;colon-1234', '"quoted-12345"']) {
      const { id } = await register(s, { 'x-request-id': bad });
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('request id without a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => stopTestServer(s));

  it("ignores a client's X-Request-Id and uses its own, on the response and the log lines", async () => {
    const { id } = await register(s, { 'x-request-id': 'client-chosen-id-1' });
    expect(id).not.toBe('client-chosen-id-1');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await until('user registered', () => parsed(s).find((l) => l.msg === 'user registered' && l.request_id === id));
    expect(parsed(s).some((l) => l.request_id === 'client-chosen-id-1')).toBe(false);
  });
});
