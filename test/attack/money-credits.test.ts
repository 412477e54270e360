import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountBalance, ledgerMismatches, PLATFORM, userAccount } from '../../src/server/billing/ledger';
import { findUserByLogin } from '../../src/server/auth/queries';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { newUserInput, outboxLink } from '../support/users';

// The operator's sign-up credit (SIGNUP_CREDIT_USD) is paid once per user, however many
// times at once the links that pay it (verification, and a password reset of an account
// not yet verified) are followed, from however many addresses.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SIGNUP_CREDIT_USD: '2.50' });
});
afterAll(() => stopTestServer(s));

it(
  'the verification link 50 times and a reset link 50 times, all at once from 100 addresses: one credit of $2.50',
  { timeout: 60_000 },
  async () => {
    const input = newUserInput('credrace');
    expect((await requestFrom(loopback(1, 60_000), `${s.url}/public_api/register`, { body: input })).status).toBe(200);
    const verify = await outboxLink(s.deps.db, input.email, '/verify?h=');
    expect(
      (await requestFrom(loopback(2, 60_000), `${s.url}/public_api/recover`, { body: { email: input.email } })).status,
    ).toBe(200);
    const reset = await outboxLink(s.deps.db, input.email, '/reset?token=');
    const user = (await findUserByLogin(s.deps.db, input.username))!;
    const expenseBefore = await accountBalance(s.deps.db, PLATFORM.signupCredit);

    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2
          ? requestFrom(loopback(i, 61_000), `${s.url}/public_api/verify`, { body: { hash: verify } })
          : requestFrom(loopback(i, 61_000), `${s.url}/public_api/reset`, {
              body: { token: reset, password: 'another horse 2' },
            }),
      ),
    );
    // Each link works once; whichever paid first, the credit is paid once.
    expect(byStatus(answers)).toEqual({ 200: 2, 400: 98 });
    expect(await accountBalance(s.deps.db, userAccount(user.id))).toBe(2_500_000);
    expect(await accountBalance(s.deps.db, PLATFORM.signupCredit)).toBe(expenseBefore - 2_500_000);
    expect(
      await s.deps.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('credit_account', '=', userAccount(user.id))
        .execute(),
    ).toHaveLength(1);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  },
);
