import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, PLATFORM, accountBalance } from '../src/server/billing/ledger';
import { runCli } from '../src/server/cli/main';
import { byStatus, loopback, requestFrom } from './support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser, type FreshUser } from './support/users';

// Gift codes made by the operator's CLI against a running server's data folder and
// redeemed over real HTTP from distinct loopback addresses.

let s: TestServer;
let ann: FreshUser;
let nextIp = 1000;

beforeAll(async () => {
  s = await startTestServer();
  ann = await freshUser(s.deps, { prefix: 'giftann' });
});
afterAll(() => stopTestServer(s));

async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: s.dataDir }, { out: (l) => lines.push(l) });
  return { code, out: lines };
}

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

async function makeCodes(amount: string, count: number, expires = inAYear): Promise<string[]> {
  const r = await cli('coupons', 'create', '--amount', amount, '--count', String(count), '--expires', expires);
  expect(r.code).toBe(0);
  const codes = r.out.filter((l) => CODE.test(l));
  expect(codes).toHaveLength(count);
  return codes;
}

const redeem = (u: FreshUser, code: unknown, ip = loopback(nextIp++)) =>
  requestFrom(ip, `${s.url}/api/redeem_coupon`, { method: 'POST', body: { code }, token: u.token });
const balance = (userId: number) => accountBalance(s.deps.db, `user:${userId}`);

describe('coupons CLI', () => {
  it('creates random codes shown once and stored only as hashes; lists them by their last characters', async () => {
    const codes = await makeCodes('25', 3);
    expect(new Set(codes).size).toBe(3);
    const rows = await s.deps.db.selectFrom('gift_codes').selectAll().orderBy('id', 'desc').limit(3).execute();
    const stored = JSON.stringify(rows);
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replace(/-/g, ''));
    }
    expect(rows.every((r) => r.amount === 25_000_000 && r.redeemed_by === null)).toBe(true);
    const list = (await cli('coupons', 'list')).out.join('\n');
    for (const c of codes) expect(list).toContain(`…${c.slice(-4)} $25.00`);
    expect(list).toMatch(/unused/);
    // The operator log has the batch, never a code.
    expect(JSON.stringify(await s.deps.db.selectFrom('operator_log').selectAll().execute())).not.toContain(codes[0]);
  });

  it('refuses bad command lines and writes nothing', async () => {
    const before = (await s.deps.db.selectFrom('gift_codes').select('id').execute()).length;
    for (const args of [
      ['--amount', '0', '--count', '1', '--expires', inAYear],
      ['--amount', 'ten', '--count', '1', '--expires', inAYear],
      ['--amount', '5', '--count', '0', '--expires', inAYear],
      ['--amount', '5', '--count', '1.5', '--expires', inAYear],
      ['--amount', '5', '--count', '1001', '--expires', inAYear],
      ['--amount', '5', '--count', '1', '--expires', '2020-01-01'],
      ['--amount', '5', '--count', '1', '--expires', '2027-02-30'],
      ['--amount', '5', '--count', '1'],
    ]) {
      expect((await cli('coupons', 'create', ...args)).code, args.join(' ')).toBe(2);
    }
    expect((await s.deps.db.selectFrom('gift_codes').select('id').execute()).length).toBe(before);
  });
});

describe('redeem_coupon', () => {
  it('credits once, case-insensitively, with the server messages', async () => {
    const [code] = await makeCodes('25', 1);
    const before = await balance(ann.id);
    const r = await redeem(ann, `  ${code.toLowerCase()} `);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Gift code redeemed: $25.00 was added to your balance.' });
    expect(await balance(ann.id)).toBe(before + 25_000_000);
    const again = await redeem(ann, code);
    expect(again.body).toEqual({ success: false, message: 'This gift code was already used.' });
    expect(await balance(ann.id)).toBe(before + 25_000_000);
    expect(
      (await requestFrom(loopback(nextIp++), `${s.url}/api/get_transactions`, { token: ann.token })).body
        .transactions[0],
    ).toMatchObject({ description: 'Gift code', amount: 25 });
    expect((await cli('coupons', 'list')).out.join('\n')).toContain(
      `…${code.slice(-4)} $25.00 valid through ${inAYear} UTC`,
    );
    expect((await cli('coupons', 'list')).out.join('\n')).toContain(`redeemed by ${ann.username}`);
  });

  it('refuses unknown, expired, empty and malformed codes, and a stored hash, changing nothing', async () => {
    const bea = await freshUser(s.deps, { prefix: 'giftbea' });
    const [code] = await makeCodes('7.5', 1);
    await s.deps.db
      .updateTable('gift_codes')
      .set({ expires_at: Date.now() - 1000 })
      .where('amount', '=', 7_500_000)
      .execute();
    expect((await redeem(bea, code)).body).toEqual({ success: false, message: 'This gift code has expired.' });
    expect((await redeem(bea, 'AAAA-BBBB-CCCC-DDDD')).body).toEqual({ success: false, message: 'Invalid gift code.' });
    expect((await redeem(bea, '')).body).toEqual({ success: false, message: 'code: Gift code required.' });
    expect((await redeem(bea, 42)).status).toBe(400);
    const hash = (
      await s.deps.db
        .selectFrom('gift_codes')
        .select('code_hash')
        .where('redeemed_by', 'is', null)
        .executeTakeFirstOrThrow()
    ).code_hash;
    expect((await redeem(bea, hash)).body.message).toMatch(/Gift code not found|Invalid gift code/);
    expect(await balance(bea.id)).toBe(0);
    expect(
      (await requestFrom(loopback(nextIp++), `${s.url}/api/redeem_coupon`, { method: 'POST', body: { code } })).status,
    ).toBe(401);
  });

  it(
    '100 users redeeming one code at once from 100 addresses: exactly one is credited',
    { timeout: 120_000 },
    async () => {
      const [code] = await makeCodes('10', 1);
      const users: FreshUser[] = [];
      for (let i = 0; i < 100; i += 10)
        users.push(...(await Promise.all(Array.from({ length: 10 }, () => freshUser(s.deps, { prefix: 'giftrace' })))));
      const expenseBefore = await accountBalance(s.deps.db, PLATFORM.giftCodes);
      const answers = await Promise.all(
        users.map((u, i) => redeem(u, i % 2 ? code : code.toLowerCase(), loopback(5000 + i))),
      );
      expect(byStatus(answers)).toEqual({ 200: 1, 409: 99 });
      const balances = await Promise.all(users.map((u) => balance(u.id)));
      expect(balances.filter((b) => b === 10_000_000)).toHaveLength(1);
      expect(balances.filter((b) => b === 0)).toHaveLength(99);
      expect(await accountBalance(s.deps.db, PLATFORM.giftCodes)).toBe(expenseBefore - 10_000_000);
      expect(await ledgerMismatches(s.deps.db)).toEqual([]);
    },
  );

  it('limits guesses per account (10 an hour) and per address (30 an hour); a good code does not count', async () => {
    const [good1, good2] = await makeCodes('1', 2);
    const guesser = await freshUser(s.deps, { prefix: 'guesser' });
    expect((await redeem(guesser, good1)).status).toBe(200);
    const guesses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => redeem(guesser, `ZZZZ-ZZZZ-ZZZZ-${String(i).padStart(4, '0')}`)),
    );
    expect(byStatus(guesses)).toEqual({ 404: 10, 429: 5 });
    const blocked = await redeem(guesser, good2);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many gift code attempts. Please wait an hour and try again.');
    expect(await balance(guesser.id)).toBe(1_000_000);

    // Many accounts from one address.
    const ip = loopback(9000);
    const crowd = await Promise.all(Array.from({ length: 4 }, () => freshUser(s.deps, { prefix: 'crowd' })));
    const fromOne = await Promise.all(
      Array.from({ length: 36 }, (_, i) => redeem(crowd[i % 4], `YYYY-YYYY-YYYY-${String(i).padStart(4, '0')}`, ip)),
    );
    expect(byStatus(fromOne)).toEqual({ 404: 30, 429: 6 });
    // Another address is not held back by it.
    expect((await redeem(crowd[0], good2, loopback(9001))).status).toBe(200);
  });
});
