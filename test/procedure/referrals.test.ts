import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditDeposit } from '../../src/server/billing/deposit';
import { insertCardSession, setCardSessionFingerprint } from '../../src/server/billing/card/queries';
import { runCli } from '../../src/server/cli/main';
import { BONUS_HOLD_MS, BONUS_REASONS, cancelReferralBonus, payReferralBonus } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { accountBalance, ledgerMismatches, PLATFORM, userAccount } from '../../src/server/billing/ledger';
import { findUserByLogin, insertUser } from '../../src/server/auth/queries';
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
  d.db.transaction().execute((trx) =>
    creditDeposit(trx, {
      userId,
      amount: usd * 1_000_000,
      via: 'crypto',
      idempotencyKey: key,
      description: `Deposit ${key}`,
    }),
  );
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
    const late = await d
      .caller()
      .auth.register({ ...newUserInput('x'), username: code, email: `${code}@example.test` });
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
    expect(empty).toEqual({
      success: true,
      total_refs: 0,
      total_ref_earnings: 0,
      total_ref_mns: 0,
      pending_ref_earnings: 0,
    });
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
    expect(await d.caller(ref.token).referrals.get_ref_infos()).toEqual({
      success: true,
      total_refs: 3,
      total_ref_earnings: 0,
      total_ref_mns: 0,
      pending_ref_earnings: 10,
    });
    const held = await d.caller(ref.token).referrals.get_referrals({ page: 1, per_page: 1 });
    expect(held.referrals[0].description).toMatch(
      new RegExp(
        `^Referral bonus: ${carol.username}'s first deposit \\(pending, spendable from \\d{4}-\\d\\d-\\d\\d\\)$`,
      ),
    );
    expect(held.referrals[0].amount).toBe(10);
    expect(await matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(await bonuses(userAccount(ref.id))).toBe(1);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
    expect(await ledgerMismatches(d.db)).toEqual([]);

    // Nodes of referred users that are charged count; deleted and failed ones do not.
    await insertTestNode(d.db, { mn_id: `pivx-ref-${carol.id}-1`, user_id: carol.id, coin_id: 'pivx', state: 'live' });
    await insertTestNode(d.db, {
      mn_id: `pivx-ref-${carol.id}-2`,
      user_id: carol.id,
      coin_id: 'pivx',
      state: 'requested',
    });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${dan.id}-1`, user_id: dan.id, coin_id: 'pivx', state: 'deleted' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${dan.id}-2`, user_id: dan.id, coin_id: 'pivx', state: 'failed' });
    await insertTestNode(d.db, { mn_id: `pivx-ref-${other.id}-1`, user_id: other.id, coin_id: 'pivx', state: 'live' });

    expect(await d.caller(ref.token).referrals.get_ref_infos()).toEqual({
      success: true,
      total_refs: 3,
      total_ref_earnings: 10,
      total_ref_mns: 2,
      pending_ref_earnings: 0,
    });
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
    expect(p2).toEqual({
      success: true,
      referrals: [{ date: all.referrals[3].date, description: `${bob.username} signed up`, amount: 0 }],
      total: 4,
    });
    expect((await d.caller(ref.token).referrals.get_referrals({ page: 3, per_page: 3 })).referrals).toEqual([]);
  });

  it("one user never sees another's referrals, and cannot ask for them", async () => {
    expect(await d.caller(other.token).referrals.get_referrals()).toEqual({ success: true, referrals: [], total: 0 });
    expect(await d.caller(other.token).referrals.get_ref_infos()).toEqual({
      success: true,
      total_refs: 0,
      total_ref_earnings: 0,
      total_ref_mns: 0,
      pending_ref_earnings: 0,
    });
    // No way to name someone else: unknown keys are refused.
    const bad = await rejection(
      d.caller(other.token).referrals.get_referrals({ page: 1, per_page: 10, user_id: ref.id } as never),
    );
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
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => deposit(gina.id, `gina-${gina.id}-${i % 20}`, 10 + i)),
    );
    // 20 distinct deposits (each key twice): each credited once, and one bonus.
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(
      await d.db.selectFrom('referral_bonuses').select('status').where('referrer_id', '=', frank.id).execute(),
    ).toEqual([{ status: 'pending' }]);
    // Many runs of the job at once pay it once.
    await Promise.all(
      Array.from({ length: 10 }, () => matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000)),
    );
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

describe('referral bonuses held against self-referral (issue 21)', () => {
  /** A user registered and logged in from the given addresses, referred by `referrer`. */
  async function referredFrom(referrer: string, ips: { register: string; login?: string }, prefix = 'held') {
    const input = newUserInput(prefix);
    expect((await d.caller(null, ips.register).auth.register({ ...input, referrer })).success).toBe(true);
    await d.caller(null, ips.register).auth.verify({ hash: await outboxLink(d.db, input.email, '/verify?h=') });
    const login = await d
      .caller(null, ips.login ?? ips.register)
      .auth.login({ username: input.username, password: input.password });
    expect(login.auth_token).toBeTruthy();
    return (await findUserByLogin(d.db, input.username))!;
  }
  const bonusOf = (referredId: number) =>
    d.db.selectFrom('referral_bonuses').selectAll().where('referred_user_id', '=', referredId).executeTakeFirst();
  const cardDeposit = (userId: number, key: string, fingerprint: string | null) =>
    d.db.transaction().execute((trx) =>
      creditDeposit(trx, {
        userId,
        amount: 10_000_000,
        via: 'card',
        idempotencyKey: key,
        description: 'Card payment',
        card: { fingerprint },
      }),
    );

  it('pays nothing when the referred account registered or logged in from an address (IPv4, or the IPv6 /64) the referrer used', async () => {
    const ref = await freshUser(d.deps, { prefix: 'selfref' });
    const refLogin = await d.db
      .selectFrom('sessions')
      .select('ip')
      .where('user_id', '=', ref.id)
      .executeTakeFirstOrThrow();
    // The referrer also logs in over IPv6.
    await d.caller(null, '2001:db8:77:1::5').auth.login({ username: ref.username, password: ref.password });
    const sameRegistration = await referredFrom(ref.username, { register: refLogin.ip });
    const sameLogin = await referredFrom(ref.username, { register: '10.77.0.2', login: refLogin.ip });
    const same64 = await referredFrom(ref.username, { register: '2001:db8:77:1:abcd::9' });
    const mapped = await referredFrom(ref.username, { register: `::ffff:${refLogin.ip}` });
    const honest = await referredFrom(ref.username, { register: '2001:db8:77:2::5' });
    for (const u of [sameRegistration, sameLogin, same64, mapped, honest])
      expect(await deposit(u.id, `selfref-${u.id}`, 10)).toBe(true);
    for (const u of [sameRegistration, sameLogin, same64, mapped])
      expect(await bonusOf(u.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.sharedAddress });
    expect(await bonusOf(honest.id)).toMatchObject({ status: 'pending', reason: null });
    expect(await matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(await bonuses(userAccount(ref.id))).toBe(1);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
  });

  it("pays nothing for a deposit made with the referrer's card; holds it for the operator when the card is unknown", async () => {
    const ref = await freshUser(d.deps, { prefix: 'cardref' });
    // The referrer paid once with the card `fp-mallory` (recorded when the payment was credited).
    await insertCardSession(d.db, {
      id: `cs_ref_${ref.id}`,
      user_id: ref.id,
      amount: 10_000_000,
      currency: 'usd',
      url: 'https://pay.test',
      request_key: `rk-${ref.id}`,
    });
    await setCardSessionFingerprint(d.db, `cs_ref_${ref.id}`, `fp-mallory-${ref.id}`);
    const [a, b, c] = [
      await referredFrom(ref.username, { register: '10.78.0.1' }),
      await referredFrom(ref.username, { register: '10.78.0.2' }),
      await referredFrom(ref.username, { register: '10.78.0.3' }),
    ];
    await cardDeposit(a.id, `card-a-${a.id}`, `fp-mallory-${ref.id}`);
    await cardDeposit(b.id, `card-b-${b.id}`, null);
    await cardDeposit(c.id, `card-c-${c.id}`, `fp-honest-${c.id}`);
    expect(await bonusOf(a.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.referrerCard });
    expect(await bonusOf(b.id)).toMatchObject({ status: 'awaiting_approval', reason: BONUS_REASONS.cardUnknown });
    expect(await bonusOf(c.id)).toMatchObject({ status: 'pending' });
    // Neither the refused nor the held one is ever paid by time alone.
    await matureReferralBonuses(d.deps, Date.now() + 60 * 86_400_000);
    expect(
      (
        await d.db
          .selectFrom('referral_bonuses')
          .select('status')
          .where('referrer_id', '=', ref.id)
          .orderBy('id')
          .execute()
      ).map((r) => r.status),
    ).toEqual(['refused', 'awaiting_approval', 'paid']);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
  });

  it('is pending, not spendable, for 14 days after the deposit, then paid once with its notification', async () => {
    const ref = await freshUser(d.deps, { prefix: 'waitref' });
    const u = await referredFrom(ref.username, { register: '10.79.0.1' });
    expect(await deposit(u.id, `wait-${u.id}`, 10)).toBe(true);
    const b = (await bonusOf(u.id))!;
    expect(b).toMatchObject({ status: 'pending', amount: 10_000_000 });
    expect(b.matures_at - b.created_at).toBe(14 * 86_400_000);
    await matureReferralBonuses(d.deps, b.matures_at - 1);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(0);
    expect((await d.caller(ref.token).referrals.get_ref_infos()).pending_ref_earnings).toBe(10);
    await Promise.all([matureReferralBonuses(d.deps, b.matures_at), matureReferralBonuses(d.deps, b.matures_at + 1)]);
    await matureReferralBonuses(d.deps, b.matures_at + 86_400_000);
    expect(await bonuses(userAccount(ref.id))).toBe(1);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
    const t = await d.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('idempotency_key', '=', `referral-bonus:${u.id}`)
      .executeTakeFirstOrThrow();
    expect(t).toMatchObject({ kind: 'referral_bonus', credit_account: userAccount(ref.id), amount: 10_000_000 });
    expect(
      await d.db
        .selectFrom('notifications')
        .select('message')
        .where('user_id', '=', ref.id)
        .where('kind', '=', 'referral_bonus')
        .execute(),
    ).toEqual([{ message: 'You earned a referral bonus of $10.00.' }]);
    expect(await d.caller(ref.token).referrals.get_ref_infos()).toMatchObject({
      total_ref_earnings: 10,
      pending_ref_earnings: 0,
    });
  });

  /** Records that `userId` paid a card session with the card `fingerprint` (as the webhook does before crediting). */
  async function paidCard(userId: number, sessionId: string, fingerprint: string) {
    await insertCardSession(d.db, {
      id: sessionId,
      user_id: userId,
      amount: 10_000_000,
      currency: 'usd',
      url: 'https://pay.test',
      request_key: `rk-${sessionId}`,
    });
    await setCardSessionFingerprint(d.db, sessionId, fingerprint);
  }

  it('is refused, not paid, at maturity when an account was disabled or the two accounts got linked during the 14 days', async () => {
    const ref = await freshUser(d.deps, { prefix: 'matref' });
    const refIp = (
      await d.db.selectFrom('sessions').select('ip').where('user_id', '=', ref.id).executeTakeFirstOrThrow()
    ).ip;
    const [disabledRef, disabledReferred, loggedIn, sameCard, honest] = [
      await referredFrom(ref.username, { register: '10.81.0.1' }),
      await referredFrom(ref.username, { register: '10.81.0.2' }),
      await referredFrom(ref.username, { register: '10.81.0.3' }),
      await referredFrom(ref.username, { register: '10.81.0.4' }),
      await referredFrom(ref.username, { register: '10.81.0.5' }),
    ];
    for (const u of [disabledRef, disabledReferred, loggedIn, sameCard, honest])
      expect(await deposit(u.id, `mat-${u.id}`, 10)).toBe(true);
    for (const u of [disabledRef, disabledReferred, loggedIn, sameCard, honest])
      expect(await bonusOf(u.id)).toMatchObject({ status: 'pending' });
    // During the 14 days: one referred account is disabled, one logs in from the referrer's
    // address, one pays with a card the referrer pays with too.
    await d.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', disabledReferred.id).execute();
    expect(
      (await d.caller(null, refIp).auth.login({ username: loggedIn.username, password: newUserInput('x').password }))
        .auth_token,
    ).toBeTruthy();
    await paidCard(ref.id, `cs_mat_ref_${ref.id}`, `fp-shared-${ref.id}`);
    await paidCard(sameCard.id, `cs_mat_u_${sameCard.id}`, `fp-shared-${ref.id}`);
    const due = Date.now() + BONUS_HOLD_MS + 1000;
    expect(await matureReferralBonuses(d.deps, due)).toBeGreaterThanOrEqual(1);
    expect(await bonusOf(disabledReferred.id)).toMatchObject({
      status: 'refused',
      reason: BONUS_REASONS.referredDisabled,
    });
    expect(await bonusOf(loggedIn.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.sharedAddress });
    expect(await bonusOf(sameCard.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.sharedCard });
    expect(await bonusOf(honest.id)).toMatchObject({ status: 'paid' });
    expect(await bonusOf(disabledRef.id)).toMatchObject({ status: 'paid' });
    expect(await bonuses(userAccount(ref.id))).toBe(2);

    // A referrer disabled during the 14 days gets none of its pending bonuses.
    const ref2 = await freshUser(d.deps, { prefix: 'matref2' });
    const u2 = await referredFrom(ref2.username, { register: '10.81.1.1' });
    expect(await deposit(u2.id, `mat2-${u2.id}`, 10)).toBe(true);
    await d.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', ref2.id).execute();
    await matureReferralBonuses(d.deps, due);
    expect(await bonusOf(u2.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.referrerDisabled });
    expect(await bonuses(userAccount(ref2.id))).toBe(0);
    expect(await accountBalance(d.db, userAccount(ref2.id))).toBe(0);
    expect(await ledgerMismatches(d.db)).toEqual([]);
  });

  it('one card paying the first deposits of several accounts referred by one referrer earns one bonus', async () => {
    const ref = await freshUser(d.deps, { prefix: 'vpnref' });
    // Each account from its own address (a VPN), all paid with one card the referrer never used.
    const [a, b, c] = [
      await referredFrom(ref.username, { register: '10.82.0.1' }),
      await referredFrom(ref.username, { register: '10.82.0.2' }),
      await referredFrom(ref.username, { register: '10.82.0.3' }),
    ];
    const fp = `fp-vpn-${ref.id}`;
    for (const u of [a, b, c]) {
      await paidCard(u.id, `cs_vpn_${u.id}`, fp);
      await cardDeposit(u.id, `card:cs_vpn_${u.id}`, fp);
    }
    expect(await bonusOf(a.id)).toMatchObject({ status: 'pending', reason: null });
    for (const u of [b, c])
      expect(await bonusOf(u.id)).toMatchObject({ status: 'refused', reason: BONUS_REASONS.cardOfAnotherReferred });
    // Another referrer's referred user paying with the same card is not affected.
    const other = await freshUser(d.deps, { prefix: 'vpnother' });
    const o = await referredFrom(other.username, { register: '10.82.1.1' });
    await paidCard(o.id, `cs_vpn_${o.id}`, fp);
    await cardDeposit(o.id, `card:cs_vpn_${o.id}`, fp);
    expect(await bonusOf(o.id)).toMatchObject({ status: 'pending' });
  });

  it('cancelReferralBonus cancels a pending or held bonus of that deposit, and takes a paid one back, once', async () => {
    const ref = await freshUser(d.deps, { prefix: 'cancelref' });
    const [p, h, paid] = [
      await referredFrom(ref.username, { register: '10.80.0.1' }),
      await referredFrom(ref.username, { register: '10.80.0.2' }),
      await referredFrom(ref.username, { register: '10.80.0.3' }),
    ];
    await deposit(p.id, `cancel-p-${p.id}`, 10);
    await cardDeposit(h.id, `cancel-h-${h.id}`, null);
    await deposit(paid.id, `cancel-paid-${paid.id}`, 10);
    const [bp, bh, bpaid] = [(await bonusOf(p.id))!, (await bonusOf(h.id))!, (await bonusOf(paid.id))!];
    expect(bh.status).toBe('awaiting_approval');
    await d.db.transaction().execute((trx) => payReferralBonus(trx, bpaid.id));
    const cancel = (id: number, why: 'refunded' | 'disputed') =>
      d.db.transaction().execute((trx) => cancelReferralBonus(trx, id, why));
    expect(await cancel(bp.deposit_transfer_id, 'refunded')).toBe(true);
    expect(await cancel(bp.deposit_transfer_id, 'refunded')).toBe(false);
    expect(await cancel(bh.deposit_transfer_id, 'disputed')).toBe(true);
    expect(await cancel(bpaid.deposit_transfer_id, 'disputed')).toBe(true);
    expect(await cancel(bpaid.deposit_transfer_id, 'disputed')).toBe(false);
    expect(await cancel(999_999_999, 'refunded')).toBe(false);
    expect(await bonusOf(p.id)).toMatchObject({
      status: 'cancelled',
      reason: 'The deposit that earned it was refunded.',
    });
    expect(await bonusOf(h.id)).toMatchObject({
      status: 'cancelled',
      reason: 'The deposit that earned it was disputed.',
    });
    expect(await bonusOf(paid.id)).toMatchObject({
      status: 'cancelled',
      reason: 'The deposit that earned it was disputed. The paid bonus was taken back.',
    });
    await matureReferralBonuses(d.deps, Date.now() + 60 * 86_400_000);
    expect(await bonuses(userAccount(ref.id))).toBe(1); // paid once, then taken back
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(0);
    expect(await d.caller(ref.token).referrals.get_ref_infos()).toMatchObject({
      total_ref_earnings: 0,
      pending_ref_earnings: 0,
    });
  });
});

describe('the 10-in-30-days cap and the console (issue 21)', () => {
  let operator: FreshUser;
  beforeAll(async () => {
    operator = await freshUser(d.deps, { prefix: 'refop', tfa: true });
    const out: string[] = [];
    expect(
      await runCli(
        ['users', 'promote', operator.username],
        { DATA_DIR: d.deps.config.dataDir },
        { out: (l) => out.push(l) },
      ),
    ).toBe(0);
  });

  /** n users referred by `referrerId`, each registered from its own address (rows written directly: 100 argon2 hashes would take the test's time). */
  async function referredUsers(referrerId: number, n: number, tag: string): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const name = `${tag}${i}x${Date.now().toString(36)}`;
      ids.push(
        await insertUser(d.db, {
          username: name,
          email: `${name}@example.test`,
          password_hash: 'x',
          referrer: null,
          referrer_id: referrerId,
          room_id: `r-${name}`,
          qr_key: `q-${name}`,
          registered_ip: `10.90.${i >> 8}.${i & 255}`,
        }),
      );
    }
    return ids;
  }

  it('100 first deposits at once: exactly 10 pending, 90 held for approval; approve and refuse through the console, logged', async () => {
    const ref = await freshUser(d.deps, { prefix: 'capref' });
    const ids = await referredUsers(ref.id, 100, 'cap');
    const credited = await Promise.all(ids.map((id) => deposit(id, `cap-${id}`, 10)));
    expect(credited.every(Boolean)).toBe(true);
    const rows = await d.db
      .selectFrom('referral_bonuses')
      .select(['id', 'status', 'reason', 'referred_user_id'])
      .where('referrer_id', '=', ref.id)
      .orderBy('id')
      .execute();
    expect(rows.filter((r) => r.status === 'pending')).toHaveLength(10);
    const held = rows.filter((r) => r.status === 'awaiting_approval');
    expect(held).toHaveLength(90);
    expect(new Set(held.map((r) => r.reason))).toEqual(new Set([BONUS_REASONS.overCap]));
    expect((await d.caller(ref.token).referrals.get_ref_infos()).pending_ref_earnings).toBe(1000);

    // A customer (the referrer) cannot see or decide them.
    for (const call of [
      () => d.caller(ref.token).console.referrals.held(),
      () => d.caller(ref.token).console.referrals.approve({ id: held[0].id }),
      () => d.caller(ref.token).console.referrals.refuse({ id: held[1].id }),
    ]) {
      expect((await rejection(call())).code).toBe('NOT_FOUND');
    }
    expect((await bonusOf(held[0].referred_user_id))!.status).toBe('awaiting_approval');

    const list = await d.caller(operator.token).console.referrals.held();
    const mine = list.bonuses.filter((b) => b.referrer_id === ref.id);
    expect(mine).toHaveLength(90);
    expect(mine[0]).toMatchObject({
      id: held[0].id,
      referrer: ref.username,
      amount_micros: 10_000_000,
      reason: BONUS_REASONS.overCap,
    });

    // Approved: pending until 14 days after the deposit, like any other.
    expect(await d.caller(operator.token).console.referrals.approve({ id: held[0].id })).toEqual({ changed: true });
    expect(await d.caller(operator.token).console.referrals.approve({ id: held[0].id })).toEqual({ changed: false });
    expect(await bonusOf(held[0].referred_user_id)).toMatchObject({ status: 'pending', decided_by: operator.id });
    // Refused: never paid.
    expect(await d.caller(operator.token).console.referrals.refuse({ id: held[1].id })).toEqual({ changed: true });
    expect(await d.caller(operator.token).console.referrals.approve({ id: held[1].id })).toEqual({ changed: false });
    expect(await bonusOf(held[1].referred_user_id)).toMatchObject({ status: 'refused', decided_by: operator.id });
    expect((await rejection(d.caller(operator.token).console.referrals.approve({ id: 999_999_999 }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await rejection(d.caller(operator.token).console.referrals.approve({ id: -1 } as never))).code).toBe(
      'BAD_REQUEST',
    );
    const log = await d.db
      .selectFrom('operator_log')
      .select(['action', 'detail', 'actor_user_id'])
      .where('action', 'like', 'referral bonus %')
      .execute();
    expect(log.map((l) => [l.action, JSON.parse(l.detail).bonus_id, l.actor_user_id])).toEqual([
      ['referral bonus approve', held[0].id, operator.id],
      ['referral bonus refuse', held[1].id, operator.id],
    ]);

    await matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 1000);
    expect(await bonuses(userAccount(ref.id))).toBe(11);
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(110_000_000);
    expect(await ledgerMismatches(d.db)).toEqual([]);
  });

  it('an approval after the 14 days pays at once', async () => {
    const ref = await freshUser(d.deps, { prefix: 'lateref' });
    const ids = await referredUsers(ref.id, 11, 'late');
    for (const id of ids) await deposit(id, `late-${id}`, 10);
    const held = (
      await d.db
        .selectFrom('referral_bonuses')
        .selectAll()
        .where('referrer_id', '=', ref.id)
        .where('status', '=', 'awaiting_approval')
        .execute()
    )[0];
    // The deposit was 15 days ago.
    await d.db
      .updateTable('referral_bonuses')
      .set({ created_at: held.created_at - 15 * 86_400_000, matures_at: held.matures_at - 15 * 86_400_000 })
      .where('id', '=', held.id)
      .execute();
    expect(await d.caller(operator.token).console.referrals.approve({ id: held.id })).toEqual({ changed: true });
    expect(await bonusOf(held.referred_user_id)).toMatchObject({ status: 'paid' });
    expect(await accountBalance(d.db, userAccount(ref.id))).toBe(10_000_000);
  });

  const bonusOf = (referredId: number) =>
    d.db.selectFrom('referral_bonuses').selectAll().where('referred_user_id', '=', referredId).executeTakeFirst();
});
