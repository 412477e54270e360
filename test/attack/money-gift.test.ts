import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { addressKey } from '../../src/server/guards/rate-limit';
import { snapshot } from '../support/db-snapshot';
import { byStatus, loopback, type Answer } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Attacks on gift codes over real HTTP. Behind one trusted proxy (TRUST_PROXY=true) the
// client's address is the one the proxy appends to X-Forwarded-For, which lets loopback
// requests stand for IPv6 clients.

let s: TestServer;
let nextIp = 30_000;

beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(() => stopTestServer(s));

function send(opts: { token: string; body: string; contentType?: string; forwardedFor?: string }): Promise<Answer> {
  const u = new URL(s.url);
  const headers: Record<string, string> = {
    connection: 'close',
    authorization: `Bearer ${opts.token}`,
    'content-type': opts.contentType ?? 'application/json',
  };
  if (opts.forwardedFor) headers['x-forwarded-for'] = opts.forwardedFor;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: '/api/redeem_coupon',
        method: 'POST',
        headers,
        localAddress: loopback(nextIp++),
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function makeCode(): Promise<string> {
  const out: string[] = [];
  const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  expect(
    await runCli(
      ['coupons', 'create', '--amount', '5', '--count', '1', '--expires', inAYear],
      { DATA_DIR: s.dataDir },
      { out: (l) => out.push(l) },
    ),
  ).toBe(0);
  return out.find((l) => /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(l))!;
}

describe('guessing from many IPv6 addresses', () => {
  it('every address of one /64 counts as one client: 40 guesses from 40 of its addresses, 30 are answered', async () => {
    const crowd: FreshUser[] = await Promise.all(
      Array.from({ length: 4 }, () => freshUser(s.deps, { prefix: 'v6crowd' })),
    );
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send({
          token: crowd[i % 4].token,
          body: JSON.stringify({ code: `QQQQ-QQQQ-QQQQ-${String(i).padStart(4, '0')}` }),
          forwardedFor: `2001:db8:77:1:${(i + 1).toString(16)}::${i}`,
        }),
      ),
    );
    // Per account 10, per address 30: the crowd's 4 accounts could take 40, the /64 takes 30.
    expect(byStatus(guesses)).toEqual({ 404: 30, 429: 10 });
    // The same /64 spelled in full or upper case is still that client; the next /64 is another.
    const spelled = await send({
      token: (await freshUser(s.deps, { prefix: 'v6same' })).token,
      body: JSON.stringify({ code: await makeCode() }),
      forwardedFor: '2001:0DB8:0077:0001:0000:0000:0000:00FF',
    });
    expect(spelled.status).toBe(429);
    const neighbour = await send({
      token: (await freshUser(s.deps, { prefix: 'v6next' })).token,
      body: JSON.stringify({ code: await makeCode() }),
      forwardedFor: '2001:db8:77:2::1',
    });
    expect(neighbour.body).toEqual({ success: true, message: 'Gift code redeemed: $5.00 was added to your balance.' });
  });

  it('reads every spelling of an IPv6 address as its /64 and leaves IPv4 as it is', () => {
    expect(addressKey('2001:db8:77:1::1')).toBe('2001:db8:77:1::/64');
    expect(addressKey('2001:0DB8:0077:0001:ffff:0:0:1')).toBe('2001:db8:77:1::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:c000:201')).toBe('192.0.2.1');
    expect(addressKey('not:an:address::x')).toBe('not:an:address::x');
  });
});

describe('bad bodies', () => {
  it('malformed JSON, other content types, unicode, whitespace and very long codes get a clear answer and change nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'giftbad' });
    const before = await snapshot(s.deps.db);
    const cases: Array<[string, string | undefined, number, RegExp]> = [
      ['{"code":', undefined, 400, /^Malformed JSON body\.$/],
      ['{"code":"AAAA-BBBB-CCCC-DDDD"}', 'text/plain', 415, /^Send the body as JSON/],
      ['code=AAAA-BBBB-CCCC-DDDD', 'application/x-www-form-urlencoded', 415, /^Send the body as JSON/],
      ['[]', undefined, 400, /^Send a JSON object\.$/],
      ['{"code":["AAAA"]}', undefined, 400, /^code: /],
      [JSON.stringify({ code: 'A'.repeat(65) }), undefined, 400, /^code: Gift code not found\.$/],
      [JSON.stringify({ code: '\u00a0\u2003\t\n' }), undefined, 400, /^code: Gift code required\.$/],
      [JSON.stringify({ code: 'ＡＡＡＡ-ＢＢＢＢ-ＣＣＣＣ-ＤＤＤＤ' }), undefined, 404, /^Invalid gift code\.$/],
      [JSON.stringify({ code: 'AAAA\u0000BBBB' }), undefined, 404, /^Invalid gift code\.$/],
      [JSON.stringify({ code: 'AAAA-BBBB-CCCC-DDDD', extra: 1 }), undefined, 400, /unknown field: extra/],
    ];
    for (const [body, contentType, status, message] of cases) {
      const r = await send({ token: u.token, body, contentType, forwardedFor: loopback(nextIp++) });
      expect(r.status, body).toBe(status);
      expect(r.body.success, body).toBe(false);
      expect(r.body.message, body).toMatch(message);
    }
    expect(await snapshot(s.deps.db)).toBe(before);
  });
});
