import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditDeposit } from '../../src/server/billing/deposit';
import { BONUS_HOLD_MS } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { accountBalance, ledgerMismatches, PLATFORM, userAccount } from '../../src/server/billing/ledger';
import { findUserByLogin } from '../../src/server/auth/queries';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { makeDeps, newUserInput, rejection, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, outboxLink, type FreshUser } from '../support/users';

let d: Deps;
beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
});
afterAll(() => d.close());

/** Registers, verifies and logs in a user who came through `/ref/<referrer>`. */
async function referred(referrer: string | null, prefix = 'refd') {
  const input = newUserInput(prefix);
  const res = await d.caller().auth.register({ ...input, referrer });
  expect(res.success).toBe(true);
  await d.caller().auth.verify({ hash: await outboxLink(d.db, input.email, '/verify?h=') });
  const login = await d.caller().auth.login({ username: input.username, password: input.password });
  const row = (await findUserByLogin(d.db, input.username))!;
  return { id: row.id, username: input.username, token: login.auth_token!, row };
}

const deposit = (userId: number, key: string, usd: number) =>
  d.db.transaction().execute((trx) => creditDeposit(trx, { userId, amount: usd * 1_000_000, via: 'crypto', idempotencyKey: key, description: `Deposit ${key}` }));
const bonuses = (account: string) =>
  d.db
    .selectFrom('ledger_transfers')
    .select(sql<number>`count(*)`.as('n'))
    .where('credit_account', '=', account)
    .where('kind', '=', 'referral_bonus')
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));

describe('registration with a referral code', () => {
  it("resolves the referrer's username in any case once, at registration; an unknown or own name registers with no referrer", async () => {
    const alice = await freshUser(d.deps, { prefix: 'alice' });
    const viaUpper = await referred(`  ${alice.username.toUpperCase()} `);
    expect(viaUpper.row.referrer_id).toBe(alice.id);
    const unknown = await referred('nobody-by-this-name');
    expect(unknown.row).toMatchObject({ referrer: 'nobody-by-this-name', referrer_id: null });
    // Its own name: the account does not exist yet when the code is resolved.
    const input = newUserInput('self');
    expect((await d.caller().auth.register({ ...input, referrer: input.username })).success).toBe(true);
    expect((await findUserByLogin(d.db, input.username))!.referrer_id).toBeNull();
  });

  it('a name registered after the referred user never receives that referral or its bonus', async () => {
    const code = newUserInput('late').username;
    const early = await referred(code);
    expect(early.row.referrer_id).toBeNull();
    // Someone takes the name afterwards.
    const late = await d.caller().auth.register({ ...newUserInput('x'), username: code, email: `${code}@example.test` });
    expect(late.success).toBe(true);
    const lateRow = (await findUserByLogin(d.db, code))!;
    expect(await deposit(early.id, `late-dep-${early.id}`, 50)).toBe(true);
    expect(await bonuses(userAccount(lateRow.id))).toBe(0);
    expect(await accountBalance(d.db, userAccount(lateRow.id))).toBe(0);
  });
});

describe('get_referrals and get_ref_infos', () => {
  let ref: FreshUser;
  let other: FreshUser;
  beforeAll(async () => {
    ref = await freshUser(d.deps, { prefix: 'referrer' });
    other = await freshUser(d.deps, { prefix: 'other' });
  });

  it('list sign-ups and the bonus of each first deposit of $10 or more, once, newest first, paged', async () => {
    const empty = await d.caller(ref.token).referrals.get_ref_infos();
    expect(empty).toEqual({ success: true, total_refs: 0, total_ref_earnings: 0, total_ref_mns: 0, pending_ref_earnings: 0 });
    expect(await d.caller(ref.token).referrals.get_referrals()).toEqual({ success: true, referrals: [], total: 0 });

    const bob = await referred(ref.username, 'bob');
    const carol = await referred(ref.username, 'carol');
    const dan = await referred(ref.username, 'dan');
    // Bob's first deposit is below $10: no bonus, and none for his later, larger ones either.
    expect(await deposit(bob.id, `bob-1-${bob.id}`, 9.99)).toBe(true);
    expect(await deposit(bob.id, `bob-2-${bob.id}`, 100)).toBe(true);
    // Carol's first deposit is exactly $10: the bonus, once, whatever replays or later deposits.
    expect(await deposit(carol.id, `carol-1-${carol.id}`, 10)).toBe(true);
    expect(await deposit(carol.id, `carol-1-${carol.id}`, 10)).toBe(false);
    expect(await deposit(carol.id, `carol-2-${carol.id}`, 25)).toBe(true);
    // Held 14 days: shown as pending, nothing on the balance yet.
    expect(await bonuses(userAccount(ref.id))).toBe(0);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(0);
    expect(await d.caller(ref.token).referrals.get_ref_infos()).toEqual({ success: true, total_refs: 3, total_ref_earnings: 0, total_ref_mns: 0, pending_ref_earnings: 10 });
    const held = await d.caller(ref.token).referrals.get_referrals({ page: 1, per_page: 1 });
    expect(held.referrals[0].description).toMatch(new RegExp(`^Referral bonus: ${carol.username}'s first deposit \\(pending, spendable from \\d{4}-\\d\\d-\\d\\d\\)$`));
    expect(held.referrals[0].amount).toBe(10);
    expect(await matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(await bonuses(userAccount(ref.id))).toBe(1);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
    expect(await ledgerMismatches(d.db)).toEqual([]);

    // Nodes of referred users that are charged count; deleted and failed ones do not.
    await insertTestNode(d.db, { mn_id: `pivx-ref-${carol.id}-1`, user_id: carol.id, coin_id: 'pivx', state: 'live' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${carol.id}-2`, user_id: carol.id, coin_id: 'pivx', state: 'requested' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${dan.id}-1`, user_id: dan.id, coin_id: 'pivx', state: 'deleted' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${dan.id}-2`, user_id: dan.id, coin_id: 'pivx', state: 'failed' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${other.id}-1`, user_id: other.id, coin_id: 'pivx', state: 'live' });

    expect(await d.caller(ref.token).referrals.get_ref_infos()).toEqual({ success: true, total_refs: 3, total_ref_earnings: 10, total_ref_mns: 2, pending_ref_earnings: 0 });
    const all = await d.caller(ref.token).referrals.get_referrals({ page: 1, per_page: 100 });
    expect(all.total).toBe(4);
    expect(all.referrals.map((r) => [r.description, r.amount])).toEqual([
      [`Referral bonus: ${carol.username}'s first deposit`, 10],
      [`${dan.username} signed up`, 0],
      [`${carol.username} signed up`, 0],
      [`${bob.username} signed up`, 0],
    ]);
    expect(all.referrals[0].date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const p2 = await d.caller(ref.token).referrals.get_referrals({ page: 2, per_page: 3 });
    expect(p2).toEqual({ success: true, referrals: [{ date: all.referrals[3].date, description: `${bob.username} signed up`, amount: 0 }], total: 4 });
    expect((await d.caller(ref.token).referrals.get_referrals({ page: 3, per_page: 3 })).referrals).toEqual([]);
  });

  it("one user never sees another's referrals, and cannot ask for them", async () => {
    expect(await d.caller(other.token).referrals.get_referrals()).toEqual({ success: true, referrals: [], total: 0 });
    expect(await d.caller(other.token).referrals.get_ref_infos()).toEqual({ success: true, total_refs: 0, total_ref_earnings: 0, total_ref_mns: 0, pending_ref_earnings: 0 });
    // No way to name someone else: unknown keys are refused.
    const bad = await rejection(d.caller(other.token).referrals.get_referrals({ page: 1, per_page: 10, user_id: ref.id } as never));
    expect(bad.code).toBe('BAD_REQUEST');
    expect((await rejection(d.caller(null).referrals.get_referrals())).code).toBe('UNAUTHORIZED');
    expect((await rejection(d.caller(null).referrals.get_ref_infos())).code).toBe('UNAUTHORIZED');
  });

  it('refuses a bad page with a clear message', async () => {
    for (const [input, field] of [
      [{ page: 0, per_page: 10 }, /page/],
      [{ page: 1, per_page: 0 }, /per_page/],
      [{ page: 1, per_page: 101 }, /per_page/],
      [{ page: 1.5, per_page: 10 }, /page/],
      [{ page: 'two', per_page: 10 }, /page/],
    ] as const) {
      const err = await rejection(d.caller(ref.token).referrals.get_referrals(input as never));
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.message).toMatch(field);
    }
  });
});

describe('the referral bonus', () => {
  it('is paid once when many deposits of one referred user are credited at the same time', async () => {
    const frank = await freshUser(d.deps, { prefix: 'frank' });
    const gina = await referred(frank.username, 'gina');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => deposit(gina.id, `gina-${gina.id}-${i % 20}`, 10 + i)));
    // 20 distinct deposits (each key twice): each credited once, and one bonus.
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(await d.db.selectFrom('referral_bonuses').select('status').where('referrer_id', '=', frank.id).execute()).toEqual([{ status: 'pending' }]);
    // Many runs of the job at once pay it once.
    await Promise.all(Array.from({ length: 10 }, () => matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000)));
    expect(await bonuses(userAccount(frank.id))).toBe(1);
    expect(await accountBalance(d.db, userAccount(frank.id))).toBe(10_000_000);
    expect((await d.caller(frank.token).referrals.get_ref_infos()).total_ref_earnings).toBe(10);
    expect(await ledgerMismatches(d.db)).toEqual([]);
  });

  it('is not paid to a referrer disabled before the deposit, nor for a user with no referrer', async () => {
    const gone = await freshUser(d.deps, { prefix: 'gone' });
    const erin = await referred(gone.username, 'erin');
    await d.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', gone.id).execute();
    expect(await deposit(erin.id, `erin-${erin.id}`, 20)).toBe(true);
    expect(await bonuses(userAccount(gone.id))).toBe(0);
    const lone = await referred(null, 'lone');
    expect(await deposit(lone.id, `lone-${lone.id}`, 20)).toBe(true);
    expect(await accountBalance(d.db, PLATFORM.referrals)).toBe(-20_000_000); // Carol's and Gina's bonuses only
  });
});
