import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import type { Page } from 'playwright-core';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBalance } from '../../src/shared/format';
import { usd as noteUsd } from '../../src/shared/notification-kinds';
import { runwayText } from '../../src/shared/runway';
import { formatUsdGrouped } from '../../src/shared/money';
import { findUserByLogin } from '../../src/server/auth/queries';
import { dayOf, dayStart, initialChargeAmount, initialChargeKey, nextDay } from '../../src/server/billing/charge-days';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { accountBalance, ledgerMismatches, userAccount } from '../../src/server/billing/ledger';
import { runCli } from '../../src/server/cli/main';
import { bitcoinCall } from '../../src/server/fleet/daemons/jsonrpc';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { upsertQuote } from '../../src/server/market/queries';
import { afterRaise } from '../../src/server/notifications/raise';
import { BONUS_HOLD_MS } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { at, browserSession, liveSubscribed, logInLive, screenshot } from '../e2e/browser';
import { ensureWallet, haveBinary, pidsMatching, rpc, waitFor, withinBudget } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { nodeCharges } from '../support/nodes';
import { signedEvent, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { linkIn, startSmtp } from '../support/smtp';
import { callerFor, freshUser } from '../support/users';

/*
 * Issue 10's "Done when", as one story through the real pieces:
 *
 *   a referrer; a visitor follows their /ref/ link in Chromium, registers and verifies
 *   through the mailed link; on /dashboard/billing generates a Litecoin address (three
 *   acknowledgements); the regtest miner pays it; the pending deposit shows live with its
 *   confirmations rising block by block, then is credited at the threshold (balance and
 *   history live, no reload) and the referrer's $10 is pending, paid when its 14-day hold
 *   is over; a card payment through the FAKE
 *   Stripe (its webhook delivered twice) credits once and pays no second bonus; a gift
 *   code; a node deployed over the REST API pays its Initial Charge once; then the daily
 *   charge runs day after day (each day run twice) and charges once a day, the owner is
 *   reminded in-app and by mail from three days before the balance runs out, and on the
 *   day it cannot pay, the node is destroyed through the fleet (state, notification, mail,
 *   the page live) and never charged after. The ledger checks out at the end.
 *
 * Real: litecoind in regtest (watch-only wallet fed a tpub, the deposit job polling it
 * every second), the platform server (SQLite file, HTTP, websockets, job runner, fleet
 * simulator), an SMTP server on loopback, Chromium on the built client (`npm run build`
 * first). Fakes: Stripe's HTTP API (a SaaS; test/support/fake-stripe.ts, webhooks signed by
 * the SDK's helper) and the market quote (inserted, as the market job would write it).
 *
 * Days pass the way the job runs them: `runDailyCharge(deps, now)` is what the recurring
 * job `billing.daily_charge` calls (with Date.now()); here `now` is each next day's 00:00:30
 * UTC, with the job's own after-chunk hooks (live events and mail, fleet reconcile).
 */

const LITECOIND = '/usr/lib/litecoin/litecoind';
const root = tempDataDir('nodekeep-money-story-');
const chainDir = path.join(root, 'chain');
const dataDir = path.join(root, 'platform');
const auth = { user: 'story', password: randomBytes(12).toString('hex') };
const CONFIRMATIONS = 3;
const PRICE = 80; // USD per LTC in the quotes table
const LTC_PAID = 0.15; // $12 at PRICE: a first deposit of at least $10 pays the referral bonus
const CARD_USD = 10; // the Stripe tab's default preset
const GIFT_USD = 1;
const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_story',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_story',
  STRIPE_WEBHOOK_SECRET: 'whsec_storytest',
};
const ACKNOWLEDGEMENTS = [
  'I understand that deposits only cover hosting fees.',
  'I understand that I must buy the masternode collateral myself.',
  'I understand that crypto deposits are non-refundable.',
];

let daemon: ChildProcess | undefined;
let rpcPort = 0;
let s: TestServer;
let stripe: FakeStripe;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const session = browserSession(() => s.url);
// The operator's account key: the test holds the seed, the platform only the tpub.
const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;

const target = () => ({ endpoint: { host: '127.0.0.1', port: rpcPort }, auth });
const miner = <T>(method: string, params: unknown[], schema: v.GenericSchema<unknown, T>) =>
  withinBudget(`miner ${method}`, (timeoutMs) =>
    bitcoinCall({ ...target(), timeoutMs, wallet: 'miner' }, method, params, schema),
  );
let minerAddress = '';
const mine = (n: number) => miner('generatetoaddress', [n, minerAddress], v.array(v.string()));

const cli = async (...args: string[]) => {
  const out: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir }, { out: (l) => out.push(l) });
  return { code, out };
};
const balance = (userId: number) => accountBalance(s.deps.db, userAccount(userId));
/** "$12.00" as the pages write a balance in micro-dollars. */
const usd = (micros: number) => `$${formatBalance(micros / 1_000_000)}`;
const stat = (page: Page, label: string) =>
  page.locator('.stat', { has: page.locator('.stat-label').getByText(label, { exact: true }) }).locator('.stat-value');
async function shows(locator: ReturnType<Page['locator']>, text: string) {
  await locator.filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
  expect(await locator.first().textContent()).toBe(text);
}
const transfers = (where: { kind: string; credit?: string; debit?: string }) => {
  let q = s.deps.db.selectFrom('ledger_transfers').selectAll().where('kind', '=', where.kind);
  if (where.credit) q = q.where('credit_account', '=', where.credit);
  if (where.debit) q = q.where('debit_account', '=', where.debit);
  return q.orderBy('id').execute();
};
const notes = (userId: number, kind: string) =>
  s.deps.db
    .selectFrom('notifications')
    .select('message')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();

/** Every live process below this test's worker (zombies, already exited, aside). */
function descendants(of: number): number[] {
  const parent = new Map<number, { ppid: number; state: string }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), { ppid: Number(ppid), state });
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, info] of parent) if (info.ppid === p && info.state !== 'Z') (out.push(pid), walk(pid));
  };
  walk(of);
  return out;
}

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  fs.mkdirSync(chainDir, { recursive: true });
  rpcPort = await freePort();
  const [p2p, onion] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(chainDir, 'litecoin.conf'),
    `regtest=1\nserver=1\nlisten=1\ndiscover=0\ndnsseed=0\nupnp=0\nrpcuser=${auth.user}\nrpcpassword=${auth.password}\nfallbackfee=0.0001\n[regtest]\nrpcport=${rpcPort}\nrpcbind=127.0.0.1\nrpcallowip=127.0.0.1\nport=${p2p}\nbind=127.0.0.1:${p2p}\nbind=127.0.0.1:${onion}=onion\nvbparams=mweb:4000000000:9223372036854775807\n`,
  );
  daemon = spawn(LITECOIND, [`-conf=${chainDir}/litecoin.conf`, `-datadir=${chainDir}`], { stdio: 'ignore' });
  await waitFor(
    async () =>
      rpc(target(), 'getblockcount', [], v.number())
        .then(() => true)
        .catch(() => false),
    60_000,
    'litecoind answers',
  );
  await ensureWallet(async () => target(), 'miner');
  minerAddress = await miner('getnewaddress', [], v.string());
  await mine(110);

  smtp = await startSmtp();
  stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY });
  // The deposit job polls the daemon every second (its default is 30 s); the fleet simulator runs fast.
  s = await startTestServer(
    { ...fastFleetEnv(dataDir), ...KEYS, STRIPE_API_BASE: stripe.url, SMTP_URL: smtp.url, DEPOSIT_POLL_SECONDS: '1' },
    { dataDir },
  );
  await upsertQuote(
    s.deps.db,
    'litecoin',
    'test-quotes',
    { market_id: 'litecoin', price_usd: PRICE, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
    Date.now(),
  );
  await session.launch();
}, 180_000);

afterAll(async () => {
  await session.close();
  await stopTestServer(s, { keepData: true });
  await stripe?.close();
  await smtp?.close();
  if (daemon?.pid) {
    daemon.kill('SIGTERM');
    await waitFor(async () => daemon!.exitCode !== null || daemon!.signalCode !== null, 60_000, 'litecoind stops');
  }
  // Nothing this file started is left: not litecoind, not the fleet's simulator, not Chromium.
  expect(pidsMatching(root)).toEqual([]);
  await waitFor(
    async () => descendants(process.pid).length === 0,
    20_000,
    `no process left under the test (${descendants(process.pid).join(', ')})`,
  );
  fs.rmSync(root, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!haveBinary(LITECOIND))('issue 10, done when', () => {
  it(
    'a referred user funds the balance with litecoin, a card and a gift code, deploys a node, pays its fees once a day, is reminded and sees it destroyed when the money runs out; the referrer gets $10 once',
    { timeout: 900_000 },
    async () => {
      const t0 = Date.now();
      // ---- The operator: Litecoin accepted (CLI, watch-only from a tpub), a gift code (CLI).
      const added = await cli(
        ...[
          'deposits',
          'add',
          'ltc',
          '--label',
          'Litecoin',
          '--ticker',
          'LTC',
          '--confirmations',
          String(CONFIRMATIONS),
          '--minimum',
          '1',
          '--price-coin',
          'litecoin',
        ],
        ...[
          '--rpc-url',
          `http://127.0.0.1:${rpcPort}`,
          '--rpc-user',
          auth.user,
          '--rpc-password',
          auth.password,
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
        ],
      );
      expect(added.code).toBe(0);
      const coupon = await cli(
        'coupons',
        'create',
        '--amount',
        String(GIFT_USD),
        '--count',
        '1',
        '--expires',
        '2099-12-31',
      );
      expect(coupon.code).toBe(0);
      const code = coupon.out.find((l) => /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(l))!;
      expect(code).toBeDefined();

      // ---- The referrer, and a visitor who follows their link, registers and verifies in Chromium.
      const referrer = await freshUser(s.deps, { prefix: 'referrer' });
      const page = await session.newPage();
      await page.goto(`/ref/${referrer.username}`);
      await at(page, '/');
      await page.goto('/register');
      const username = `story${Date.now().toString(36)}`;
      const email = `${username}@example.test`;
      const password = 'story-secret-10';
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      const verifyMail = await smtp.waitFor(email, /confirm/i, 30_000);
      await page.goto(linkIn(verifyMail.text, '/verify?h='));
      await page.getByText('Successfully verified!').waitFor();
      const user = (await findUserByLogin(s.deps.db, username))!;
      expect(user.referrer_id).toBe(referrer.id);
      await logInLive(page, { username, password });
      // The same user's API session, for the deploy and the notification list.
      const token = (await callerFor(s.deps)().auth.login({ username, password })).auth_token!;
      expect(token).toBeTruthy();
      const api = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
        const r = await fetch(`${s.url}${p}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: r.status, body: (await r.json()) as any };
      };

      // ---- Litecoin: the address after the three acknowledgements; the miner pays it.
      const subscribed = liveSubscribed(page);
      await page.goto('/dashboard/billing');
      await subscribed;
      await shows(stat(page, 'Account balance'), '$0.00');
      const generate = page.getByRole('button', { name: 'Generate address' });
      for (const [i, text] of ACKNOWLEDGEMENTS.entries()) {
        expect(await generate.isDisabled(), `before acknowledgement ${i + 1}`).toBe(true);
        await page.getByLabel(text).check();
      }
      await generate.click();
      const address = (await page.getByTestId('deposit-address').innerText()).trim();
      const stored = await s.deps.db
        .selectFrom('deposit_addresses')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ currency_id: 'ltc', address });
      // From here on the page is never reloaded: everything arrives over the live socket.
      const navigations: string[] = [];
      page.on('framenavigated', (f) => navigations.push(f.url()));
      const txid = await miner('sendtoaddress', [address, LTC_PAID], v.string());
      const pending = page.getByTestId('pending-deposit');
      // Seen in the mempool by the deposit job: pending, in litecoin (not dollars), 0 of 3.
      await pending.filter({ hasText: `0 / ${CONFIRMATIONS} confirmations` }).waitFor({ timeout: 60_000 });
      expect(await pending.locator('.pending-what').innerText()).toBe(`${LTC_PAID} Litecoin`);
      await screenshot(page, 'story10-pending-deposit', { fullPage: false });
      for (let c = 1; c < CONFIRMATIONS; c++) {
        await mine(1);
        await pending.filter({ hasText: `${c} / ${CONFIRMATIONS} confirmations` }).waitFor({ timeout: 60_000 });
        expect(await balance(user.id)).toBe(0);
        expect(await stat(page, 'Account balance').textContent()).toBe('$0.00');
      }
      // The threshold: credited once, at the quote, the pending list empty, all live.
      await mine(1);
      const ltcMicros = Math.round(LTC_PAID * PRICE * 1_000_000);
      await shows(stat(page, 'Account balance'), usd(ltcMicros));
      await page.getByText('No deposits waiting for confirmations.').waitFor();
      await page.getByRole('cell', { name: `Litecoin deposit (${LTC_PAID} LTC)`, exact: true }).waitFor();
      await shows(page.getByTestId('topbar-balance'), usd(ltcMicros));
      expect(navigations).toEqual([]);
      const crypto = await transfers({ kind: 'crypto_deposit', credit: userAccount(user.id) });
      expect(crypto).toHaveLength(1);
      expect(crypto[0].idempotency_key).toMatch(new RegExp(`^crypto:ltc:${txid}:\\d+$`));
      expect(crypto[0].amount).toBe(ltcMicros);
      expect(JSON.parse(crypto[0].meta!)).toMatchObject({
        price_usd: PRICE,
        price_source: 'test-quotes',
        txid,
        confirmations: CONFIRMATIONS,
      });
      expect((await notes(user.id, 'deposit_pending')).length).toBe(1);
      expect(await notes(user.id, 'deposit_credited')).toEqual([
        { message: `Your Litecoin deposit of ${noteUsd(ltcMicros)} was credited to your balance.` },
      ]);
      // The referrer's bonus is held 14 days (a refund could still cancel it): pending, nothing spendable yet.
      expect(
        await s.deps.db
          .selectFrom('referral_bonuses')
          .select('status')
          .where('referrer_id', '=', referrer.id)
          .execute(),
      ).toEqual([{ status: 'pending' }]);
      expect(await transfers({ kind: 'referral_bonus', credit: userAccount(referrer.id) })).toEqual([]);
      expect(await balance(referrer.id)).toBe(0);
      // The hold over (the job, run as at that time): exactly $10, once.
      expect(await matureReferralBonuses(s.deps, Date.now() + BONUS_HOLD_MS + 60_000)).toBe(1);
      expect(await matureReferralBonuses(s.deps, Date.now() + BONUS_HOLD_MS + 120_000)).toBe(0);
      const bonus = await transfers({ kind: 'referral_bonus', credit: userAccount(referrer.id) });
      expect(bonus.map((b) => b.amount)).toEqual([10_000_000]);
      expect(await balance(referrer.id)).toBe(10_000_000);
      await smtp.waitFor(referrer.email, /referral bonus/i, 30_000);
      // More blocks and more polls of the job credit nothing again.
      await mine(2);
      // The witness: two whole runs of the deposit job that began after those blocks.
      await s.jobs.trigger('deposits.watch');
      await s.jobs.trigger('deposits.watch');
      expect(await transfers({ kind: 'crypto_deposit', credit: userAccount(user.id) })).toHaveLength(1);

      // ---- A card payment of $10 through the fake Stripe: the webhook comes twice, one credit, no second bonus.
      await page.getByRole('tab', { name: 'Stripe', exact: true }).click();
      const card = page.getByRole('tabpanel', { name: 'Stripe', exact: true });
      expect(await card.getByRole('radio', { name: `$${CARD_USD}`, exact: true }).isChecked()).toBe(true);
      await card.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      const sessionId = page.url().split('/pay/')[1];
      expect(stripe.sessions.get(sessionId)?.amount_total).toBe(CARD_USD * 100);
      // Back from the provider's page (a navigation, as the provider's redirect is), then the page stays.
      const resubscribed = liveSubscribed(page);
      await page.goto('/dashboard/billing?card=success');
      await page.getByText('Thank you. Your payment is added to your balance').waitFor();
      // The page cleans its address bar (said once); that in-page replace is not a navigation away.
      await page.waitForURL(`${s.url}/dashboard/billing`);
      await resubscribed;
      navigations.length = 0;
      const paid = signedEvent('checkout.session.completed', stripe.complete(sessionId), KEYS.STRIPE_WEBHOOK_SECRET);
      const deliveries = await Promise.all(
        [0, 1].map(() =>
          fetch(`${s.url}/api/stripe_webhook`, {
            method: 'POST',
            headers: { 'stripe-signature': paid.signature },
            body: paid.payload,
          }),
        ),
      );
      expect(deliveries.map((r) => r.status)).toEqual([200, 200]);
      // Stripe's retry of the same event later on: still one credit.
      const again = await fetch(`${s.url}/api/stripe_webhook`, {
        method: 'POST',
        headers: { 'stripe-signature': paid.signature },
        body: paid.payload,
      });
      expect(again.status).toBe(200);
      const afterCard = ltcMicros + CARD_USD * 1_000_000;
      await shows(stat(page, 'Account balance'), usd(afterCard));
      expect(await transfers({ kind: 'card_payment', credit: userAccount(user.id) })).toEqual([
        expect.objectContaining({ idempotency_key: `card:${sessionId}`, amount: CARD_USD * 1_000_000 }),
      ]);
      expect(await balance(user.id)).toBe(afterCard);
      expect(await transfers({ kind: 'referral_bonus' })).toHaveLength(1);
      expect(await balance(referrer.id)).toBe(10_000_000);

      // ---- The gift code, typed in lower case.
      await page.getByRole('tab', { name: 'Gift Code', exact: true }).click();
      const gift = page.getByRole('tabpanel', { name: 'Gift Code', exact: true });
      await gift.getByRole('textbox', { name: 'Gift code' }).fill(code.toLowerCase());
      await gift.getByRole('button', { name: 'Redeem' }).click();
      await gift.getByText(`Gift code redeemed: ${usd(GIFT_USD * 1_000_000)} was added to your balance.`).waitFor();
      const funded = afterCard + GIFT_USD * 1_000_000;
      await shows(stat(page, 'Account balance'), usd(funded));
      expect(await balance(user.id)).toBe(funded);
      expect(await transfers({ kind: 'referral_bonus' })).toHaveLength(1);
      expect(navigations).toEqual([]);

      // ---- A node deployed over the REST API: its Initial Charge for the rest of today, once.
      const deployed = await api('POST', '/api/deploy_server', {
        currency: 'pivx',
        package: 'dedicated',
        txid: randomBytes(32).toString('hex'),
      });
      expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
      const mnId = deployed.body.server_id as string;
      const node = await s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', mnId).executeTakeFirstOrThrow();
      const fee = node.hosting_price;
      expect(fee).toBeGreaterThan(0);
      const initial = initialChargeAmount(fee, node.created_at);
      expect(await transfers({ kind: 'initial_charge', debit: userAccount(user.id) })).toEqual([
        expect.objectContaining({ idempotency_key: initialChargeKey(node.id), amount: initial }),
      ]);
      let expected = funded - initial;
      expect(await balance(user.id)).toBe(expected);
      await shows(stat(page, 'Account balance'), usd(expected));
      await shows(stat(page, 'Total nodes'), '1');
      await shows(stat(page, 'Monthly expenses'), usd(30 * fee));
      await page.getByRole('cell', { name: /^Initial Charge: / }).waitFor();
      await waitFor(
        async () =>
          (await s.deps.db.selectFrom('nodes').select('state').where('id', '=', node.id).executeTakeFirstOrThrow())
            .state === 'live',
        90_000,
        'the node live',
      );
      // The referrer's affiliate numbers: one referral, $10 earned, one node of theirs.
      const refInfos = async () =>
        (await fetch(`${s.url}/api/get_ref_infos`, { headers: { authorization: `Bearer ${referrer.token}` } }).then(
          (r) => r.json(),
        )) as Record<string, unknown>;
      expect(await refInfos()).toEqual({
        success: true,
        total_refs: 1,
        total_ref_earnings: 10,
        total_ref_mns: 1,
        pending_ref_earnings: 0,
      });
      // The deploy's own daily job runs on (every minute, for the real today): it never charges this node today.
      expect(await transfers({ kind: 'daily_charge', debit: userAccount(user.id) })).toEqual([]);

      // ---- Days pass: each next day's charge, run twice (a rerun), as the job runs it.
      const afterChunk = (destroyed: boolean) => {
        afterRaise(s.deps);
        if (destroyed) void s.fleet.reconcile();
      };
      const chargeDay = (now: number) => runDailyCharge({ db: s.deps.db, log: s.deps.log, afterChunk }, now);
      const chargesOfNode = async () => (await nodeCharges(s.deps.db, node.id)).map((c) => c.day);
      const paidDays: string[] = [];
      const remindedDays: Array<{ day: string; left: number }> = [];
      let day = dayOf(node.created_at);
      let destroyedOn: string | null = null;
      const tDays = Date.now();
      while (!destroyedOn) {
        day = nextDay(day);
        expect(paidDays.length, 'the balance runs out at last').toBeLessThan(400);
        await chargeDay(dayStart(day) + 30_000);
        await chargeDay(dayStart(day) + 6 * 3600_000);
        if (expected >= fee) {
          expected -= fee;
          paidDays.push(day);
          // Reminded from under three days of fees left, once that day, while the node runs.
          if (expected < 3 * fee) remindedDays.push({ day, left: expected });
        } else destroyedOn = day;
        expect(await chargesOfNode()).toEqual(paidDays);
        // The owner's history: one line for the day, named by the node.
        if (paidDays.at(-1) === day)
          expect((await transfers({ kind: 'daily_charge', debit: userAccount(user.id) })).at(-1)).toMatchObject({
            amount: fee,
            description: `Daily charge: ${mnId} (${day})`,
          });
        expect(await balance(user.id), day).toBe(expected);
        expect((await notes(user.id, 'low_balance')).length, day).toBe(remindedDays.length);
      }
      const daysMs = Date.now() - tDays;
      // The first reminder came three days ahead at most, not earlier, and every day after it.
      expect(remindedDays.length).toBeGreaterThanOrEqual(1);
      expect(remindedDays.length).toBeLessThanOrEqual(3);
      // The runway in days and hours; the last day, when the balance no longer pays the next charge, names the node and what keeps it.
      expect((await notes(user.id, 'low_balance')).map((n) => n.message)).toEqual(
        remindedDays.map(({ left }) =>
          left < fee
            ? `Your balance of ${noteUsd(left)} does not cover the next daily charge of $${formatUsdGrouped(fee)} at 00:00 UTC. Add at least ${centsUp(fee - left)} before then, or this node will be destroyed: PIVX node ${mnId}.`
            : `Your balance is ${noteUsd(left)}: enough for ${runwayText(Math.floor((left * 24) / fee))} of hosting at $${formatUsdGrouped(fee)} a day. Add funds to keep your nodes running.`,
        ),
      );
      // In-app (the notification list the navbar reads) and one mail per reminder on the SMTP server.
      const inApp = (await api('GET', '/api/get_notifications')).body.notifications.map(
        (n: { message: string }) => n.message,
      );
      expect(inApp).toContain((await notes(user.id, 'low_balance')).at(-1)!.message);
      for (const { left } of remindedDays)
        await smtp.waitFor(
          email,
          left < fee
            ? /^Add funds before 00:00 UTC or a node will be destroyed$/
            : /^Your Nodekeep balance is running low$/,
          30_000,
        );
      expect(smtp.inbox.filter((m) => m.to.includes(email) && /running low/.test(m.subject))).toEqual([]);

      // ---- The day the balance cannot pay: destroyed through the fleet, the owner told, the page live.
      expect(await balance(user.id)).toBeLessThan(fee);
      await waitFor(
        async () =>
          (await s.deps.db.selectFrom('nodes').select('state').where('id', '=', node.id).executeTakeFirstOrThrow())
            .state === 'deleted',
        60_000,
        'the node destroyed by the engine',
      );
      expect(
        await s.deps.db
          .selectFrom('nodes')
          .select(['delete_reason', 'deleted_at'])
          .where('id', '=', node.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({
        delete_reason: 'Hosting fees not covered by the balance',
        deleted_at: dayStart(destroyedOn),
      });
      const destroyedNote = `Your PIVX node ${mnId} was destroyed because its hosting fees were not paid.`;
      expect(await notes(user.id, 'node_destroyed_unpaid')).toEqual([{ message: destroyedNote }]);
      expect(
        (await api('GET', '/api/get_notifications')).body.notifications.map((n: { message: string }) => n.message),
      ).toContain(destroyedNote);
      await smtp.waitFor(email, /^Your PIVX node was destroyed for unpaid fees$/, 30_000);
      await shows(stat(page, 'Total nodes'), '0');
      await shows(stat(page, 'Monthly expenses'), '$0.00');
      await shows(stat(page, 'Account balance'), usd(expected));
      expect(navigations).toEqual([]);
      expect(await refInfos()).toEqual({
        success: true,
        total_refs: 1,
        total_ref_earnings: 10,
        total_ref_mns: 0,
        pending_ref_earnings: 0,
      });
      // In-app, on the open page: the navbar's list has the last reminder and the destruction.
      await page.getByRole('button', { name: /^Notifications( \(\d+\))?$/ }).click();
      const list = page.getByRole('region', { name: 'Notification list' });
      await list.getByText(destroyedNote, { exact: true }).waitFor();
      await list.getByText((await notes(user.id, 'low_balance')).at(-1)!.message, { exact: true }).waitFor();
      await screenshot(page, 'story10-after-destroy', { fullPage: false });

      // ---- Nothing is charged for it afterwards, and no reminder for a balance nothing draws on.
      for (let i = 0; i < 2; i++) {
        day = nextDay(day);
        await chargeDay(dayStart(day) + 30_000);
      }
      expect(await chargesOfNode()).toHaveLength(paidDays.length);
      expect(await balance(user.id)).toBe(expected);
      expect(await notes(user.id, 'low_balance')).toHaveLength(remindedDays.length);

      // ---- The whole story in money: what came in equals what was charged plus what is left.
      expect(ltcMicros + CARD_USD * 1_000_000 + GIFT_USD * 1_000_000).toBe(initial + paidDays.length * fee + expected);
      expect(await transfers({ kind: 'referral_bonus' })).toHaveLength(1);
      expect(await balance(referrer.id)).toBe(10_000_000);
      expect(await ledgerMismatches(s.deps.db)).toEqual([]);
      await page.context().close();
      console.log(
        `money story: ${paidDays.length} days paid, reminded on ${remindedDays.length}, destroyed ${destroyedOn}; days in ${daysMs} ms; whole story ${Date.now() - t0} ms`,
      );
    },
  );
});

/** An amount to add, rounded up to the cent (the reminder's "Add at least"). */
function centsUp(micros: number): string {
  return `$${(Math.ceil(micros / 10_000) / 100).toFixed(2)}`;
}
