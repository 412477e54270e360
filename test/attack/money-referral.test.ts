import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDebt } from '../../src/server/billing/debt';
import { accountBalance, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { BONUS_HOLD_MS } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { signedEvent, startServerWithFakeStripe, STRIPE_TEST_KEYS, type FakeStripe } from '../support/fake-stripe';
import { loopback, requestFrom } from '../support/from-ip';
import type { TestServer } from '../support/server';
import { newUserInput, outboxLink } from '../support/users';

// The self-referral attack of issue 21, replayed over real HTTP from loopback addresses:
// one person registers accounts with their own referral code and pays $10 by card into
// each, against the FAKE of Stripe's API (test/support/fake-stripe.ts).

const KEYS = STRIPE_TEST_KEYS;

let stripe: FakeStripe;
let s: TestServer;
let stop: (() => Promise<void>) | undefined;
let nextIp = 30_000;

beforeAll(async () => {
  ({ stripe, server: s, stop } = await startServerWithFakeStripe());
});
afterAll(() => stop?.());

type Account = { id: number; username: string; token: string; ip: string };

/** Registers (with a referral code), verifies and logs in, all from `ip`, as a browser there would. */
async function account(ip: string, referrer: string | null, prefix: string): Promise<Account> {
  const input = newUserInput(prefix);
  const reg = await requestFrom(ip, `${s.url}/public_api/register`, { body: { ...input, referrer } });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  const hash = await outboxLink(s.deps.db, input.email, '/verify?h=');
  expect((await requestFrom(ip, `${s.url}/public_api/verify`, { body: { hash } })).status).toBe(200);
  const login = await requestFrom(ip, `${s.url}/public_api/login`, {
    body: { username: input.username, password: input.password },
  });
  expect(login.body.auth_token, JSON.stringify(login.body)).toBeTruthy();
  const row = await s.deps.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', input.username)
    .executeTakeFirstOrThrow();
  return { id: row.id, username: input.username, token: login.body.auth_token, ip };
}

/** Pays `usd` by card from the account's address with the card of `fingerprint`; the signed webhook credits it. */
async function payByCard(a: Account, usd: number, fingerprint: string, opts: { stripeFails?: boolean } = {}) {
  const open = await requestFrom(a.ip, `${s.url}/api/credit_card`, { body: { amount: usd }, token: a.token });
  expect(open.status, JSON.stringify(open.body)).toBe(200);
  const paid = stripe.complete(open.body.session, { fingerprint });
  // One 500: the card lookup is not retried (it would delay the credit), so Stripe does not say which card paid.
  if (opts.stripeFails) stripe.failNext(1, 'status500');
  const ev = signedEvent('checkout.session.completed', paid, KEYS.STRIPE_WEBHOOK_SECRET);
  const r = await fetch(`${s.url}/api/stripe_webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature },
    body: ev.payload,
  });
  expect(await r.json()).toEqual({ success: true, message: 'Credited.' });
  return open.body.session as string;
}

/** Delivers a signed Stripe event about a charge (refund, dispute) as Stripe would. */
async function deliverCharge(type: string, object: unknown) {
  const ev = signedEvent(type, object, KEYS.STRIPE_WEBHOOK_SECRET);
  const r = await fetch(`${s.url}/api/stripe_webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature },
    body: ev.payload,
  });
  expect(r.status).toBe(200);
}

const refInfos = (a: Account) =>
  requestFrom(a.ip, `${s.url}/api/get_ref_infos`, { token: a.token }).then((r) => r.body);
const bonusStatuses = (referrerId: number) =>
  s.deps.db
    .selectFrom('referral_bonuses')
    .select('status')
    .where('referrer_id', '=', referrerId)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => r.status));
/** What the referrer can spend once every hold is over. */
async function balanceAfterHolds(a: Account) {
  await matureReferralBonuses(s.deps, Date.now() + BONUS_HOLD_MS + 60_000);
  return accountBalance(s.deps.db, userAccount(a.id));
}

describe('self-referral', () => {
  it("three accounts registered from the referrer's own address, each paid $10 by card: no bonus, now or later", async () => {
    const home = loopback(nextIp++);
    const mallory = await account(home, null, 'mallory');
    const sock = [
      await account(home, mallory.username, 'sock1'),
      await account(home, mallory.username, 'sock2'),
      await account(home, mallory.username, 'sock3'),
    ];
    for (const [i, a] of sock.entries()) await payByCard(a, 10, `fp-sock-${mallory.id}-${i}`);
    expect(await bonusStatuses(mallory.id)).toEqual(['refused', 'refused', 'refused']);
    expect(await refInfos(mallory)).toEqual({
      success: true,
      total_refs: 3,
      total_ref_earnings: 0,
      total_ref_mns: 0,
      pending_ref_earnings: 0,
    });
    expect(await balanceAfterHolds(mallory)).toBe(0);
    for (const a of sock) expect(await accountBalance(s.deps.db, userAccount(a.id))).toBe(10_000_000);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('the same from three other addresses, but paid with the card the referrer used: no bonus; Stripe unable to say which card: held for the operator', async () => {
    const mallory = await account(loopback(nextIp++), null, 'mallory');
    const card = `fp-mallory-${mallory.id}`;
    await payByCard(mallory, 10, card);
    const sock = [
      await account(loopback(nextIp++), mallory.username, 'sock1'),
      await account(loopback(nextIp++), mallory.username, 'sock2'),
      await account(loopback(nextIp++), mallory.username, 'sock3'),
    ];
    for (const a of sock) await payByCard(a, 10, card);
    expect(await bonusStatuses(mallory.id)).toEqual(['refused', 'refused', 'refused']);
    // The card is recorded on each paid session.
    expect(
      new Set(
        (
          await s.deps.db
            .selectFrom('card_sessions')
            .select('card_fingerprint')
            .where('user_id', 'in', [mallory.id, ...sock.map((a) => a.id)])
            .execute()
        ).map((r) => r.card_fingerprint),
      ),
    ).toEqual(new Set([card]));
    const unchecked = await account(loopback(nextIp++), mallory.username, 'sock4');
    await payByCard(unchecked, 10, card, { stripeFails: true });
    expect(await bonusStatuses(mallory.id)).toEqual(['refused', 'refused', 'refused', 'awaiting_approval']);
    expect(await refInfos(mallory)).toMatchObject({ total_ref_earnings: 0, pending_ref_earnings: 10 });
    expect(await balanceAfterHolds(mallory)).toBe(10_000_000); // her own deposit, no bonus
  });

  it('an honest referral, from another address with another card, is pending for 14 days and then paid once', async () => {
    const ann = await account(loopback(nextIp++), null, 'ann');
    await payByCard(ann, 10, `fp-ann-${ann.id}`);
    const friend = await account(loopback(nextIp++), ann.username, 'friend');
    await payByCard(friend, 10, `fp-friend-${friend.id}`);
    expect(await bonusStatuses(ann.id)).toEqual(['pending']);
    const infos = await refInfos(ann);
    expect(infos).toEqual({
      success: true,
      total_refs: 1,
      total_ref_earnings: 0,
      total_ref_mns: 0,
      pending_ref_earnings: 10,
    });
    const history = await requestFrom(ann.ip, `${s.url}/api/get_referrals`, { token: ann.token });
    expect(history.body.referrals[0].description).toMatch(
      /^Referral bonus: .+'s first deposit \(pending, spendable from \d{4}-\d\d-\d\d\)$/,
    );
    expect(await accountBalance(s.deps.db, userAccount(ann.id))).toBe(10_000_000);
    expect(await balanceAfterHolds(ann)).toBe(20_000_000);
    expect(await balanceAfterHolds(ann)).toBe(20_000_000);
    expect(await refInfos(ann)).toMatchObject({ total_ref_earnings: 10, pending_ref_earnings: 0 });
  });

  it.each([
    ['refunded', (session: string) => deliverCharge('charge.refunded', stripe.refund(session, 100))],
    ['disputed', (session: string) => deliverCharge('charge.dispute.created', stripe.dispute(session))],
  ] as const)(
    'a referred deposit %s during the hold: the pending bonus is cancelled and never paid',
    async (_what, reverse) => {
      const ann = await account(loopback(nextIp++), null, 'ann');
      const friend = await account(loopback(nextIp++), ann.username, 'friend');
      const session = await payByCard(friend, 10, `fp-friend-${friend.id}`);
      expect(await bonusStatuses(ann.id)).toEqual(['pending']);
      await reverse(session);
      expect(await bonusStatuses(ann.id)).toEqual(['cancelled']);
      expect(await refInfos(ann)).toMatchObject({ total_ref_earnings: 0, pending_ref_earnings: 0 });
      expect(await balanceAfterHolds(ann)).toBe(0);
      expect(await ledgerMismatches(s.deps.db)).toEqual([]);
    },
  );

  it('a deposit disputed after its bonus was paid: the bonus is taken back from the referrer, as a debt when it was spent', async () => {
    const ann = await account(loopback(nextIp++), null, 'ann');
    const friend = await account(loopback(nextIp++), ann.username, 'friend');
    const session = await payByCard(friend, 10, `fp-friend-${friend.id}`);
    expect(await balanceAfterHolds(ann)).toBe(10_000_000); // paid: the 14 days are over
    // Ann spends it (a day's charge, in effect), then the friend's card payment is disputed.
    await s.deps.db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: `spent:${ann.id}`,
        debit: userAccount(ann.id),
        credit: 'platform:revenue',
        amount: 4_000_000,
        kind: 'daily_charge',
        description: 'spent',
      }),
    );
    const ev = signedEvent('charge.dispute.created', stripe.dispute(session), KEYS.STRIPE_WEBHOOK_SECRET);
    const deliver = () =>
      fetch(`${s.url}/api/stripe_webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature },
        body: ev.payload,
      }).then((r) => r.status);
    // Delivered 20 times at once: taken back once.
    expect(new Set(await Promise.all(Array.from({ length: 20 }, deliver)))).toEqual(new Set([200]));
    expect(await bonusStatuses(ann.id)).toEqual(['cancelled']);
    expect(await accountBalance(s.deps.db, userAccount(ann.id))).toBe(0);
    expect(await openDebt(s.deps.db, ann.id)).toBe(4_000_000);
    expect(await refInfos(ann)).toMatchObject({ total_ref_earnings: 0, pending_ref_earnings: 0 });
    const history = await requestFrom(ann.ip, `${s.url}/api/get_referrals`, { token: ann.token });
    expect(history.body.referrals[0]).toMatchObject({ amount: -10 });
    expect(history.body.referrals[0].description).toMatch(/^Referral bonus taken back: .+'s deposit was disputed$/);
    expect(await balanceAfterHolds(ann)).toBe(0);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});
