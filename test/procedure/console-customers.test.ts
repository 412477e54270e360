import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalance, PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { runCli } from '../../src/server/cli/main';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { describeZodError } from '../../src/server/rpc/trpc';
import { ZodError } from 'zod';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';

// The console's Customers page procedures: each action goes through the service the CLI
// calls and writes the operator log (who, what, when, from where) in its transaction.

let d: Deps;
let operator: FreshUser;
const OPERATOR_IP = '198.51.100.23';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  expect(await cli('users', 'promote', operator.username)).toMatchObject({ code: 0 });
});
afterAll(() => d?.close());

const op = () => d.caller(operator.token, OPERATOR_IP).console;

async function cli(...args: string[]) {
  const out: string[] = [];
  const stderr = process.stderr.write;
  let err = '';
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    const code = await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) });
    return { code, out, err };
  } finally {
    process.stderr.write = stderr;
  }
}

async function logTotal() {
  return (await op().log({})).total;
}
async function lastLine() {
  return (await op().log({ per_page: 1 })).lines[0];
}
function expectOperatorLine(line: Awaited<ReturnType<typeof lastLine>>, action: string) {
  expect(line).toMatchObject({
    action,
    actor: 'operator',
    operator: { id: operator.id, username: operator.username },
    address: OPERATOR_IP,
  });
  expect(Math.abs(Date.parse(line.at) - Date.now())).toBeLessThan(60_000);
}
const transferCount = async () => (await d.db.selectFrom('ledger_transfers').select('id').execute()).length;
const balance = (id: number) => accountBalance(d.db, userAccount(id));

describe('find a customer', () => {
  it('by username, a part of the email, or the id; shows profile, nodes, ledger and notifications', async () => {
    const ann = await freshUser(d.deps, { prefix: 'annfind' });
    for (const q of [ann.username, ann.username.toUpperCase(), ann.email.slice(3, 12), String(ann.id), `#${ann.id}`]) {
      const r = await op().customers.search({ q });
      expect(
        r.customers.map((c) => c.id),
        q,
      ).toContain(ann.id);
    }
    // Wildcards are taken literally.
    expect((await op().customers.search({ q: '%' })).customers).toEqual([]);
    const err = await rejection(op().customers.search({ q: '  ' }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(describeZodError(err.cause as ZodError)).toBe('q: type a username, email or id');

    await insertTestNode(d.db, {
      mn_id: `mn-${ann.id}`,
      user_id: ann.id,
      coin_id: 'dash',
      alias: 'my dash',
      state: 'live',
    });
    await op().customers.adjust_balance({ id: ann.id, amount: '7.5', reason: 'welcome', key: `k-${ann.id}` });
    const p = await op().customers.get({ id: ann.id });
    expect(p.customer).toMatchObject({
      id: ann.id,
      username: ann.username,
      email: ann.email,
      verified: true,
      tfa: false,
      disabled: false,
      balance_micros: 7_500_000,
      live_sessions: 1,
    });
    expect(p.nodes).toEqual([
      expect.objectContaining({ mn_id: `mn-${ann.id}`, coin_id: 'dash', alias: 'my dash', state: 'live' }),
    ]);
    const ledger = await op().customers.ledger({ id: ann.id });
    expect(ledger).toMatchObject({
      balance_micros: 7_500_000,
      total: 1,
      transfers: [{ kind: 'adjustment', description: 'welcome', amount_micros: 7_500_000 }],
    });
    // A raised notification shows (the reset below raises one; here: the verification flow raised none).
    expect(Array.isArray(p.notifications)).toBe(true);
    expect((await rejection(op().customers.get({ id: 999_999 }))).message).toBe('No customer #999999.');
  });
});

describe('the newest customers', () => {
  it('lists them newest first before any search, at most 50, and says when there are more', async () => {
    const first = await freshUser(d.deps, { prefix: 'newest-a' });
    const second = await freshUser(d.deps, { prefix: 'newest-b' });
    const r = await op().customers.newest();
    expect(r.customers.slice(0, 2).map((c) => c.username)).toEqual([second.username, first.username]);
    expect(r.customers[0]).toMatchObject({ id: second.id, email: second.email, balance_micros: 0, disabled: false });
    const total = async () => (await d.db.selectFrom('users').select('id').execute()).length;
    expect(r.more).toBe(false);
    expect(r.customers).toHaveLength(await total());

    // Past 50 accounts the page shows the 50 newest and says there are more.
    const now = Date.now();
    await d.db
      .insertInto('users')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          username: `bulk${i}`,
          username_key: `bulk${i}`,
          email: `bulk${i}@example.com`,
          email_key: `bulk${i}@example.com`,
          password_hash: 'x',
          verified_at: null,
          referrer: null,
          referrer_id: null,
          room_id: `room-bulk-${i}`,
          qr_key: `qr-bulk-${i}`,
          tfa_secret: null,
          disabled_at: null,
          created_at: now,
        })),
      )
      .execute();
    const more = await op().customers.newest();
    expect(more.more).toBe(true);
    expect(more.customers).toHaveLength(50);
    expect(more.customers[0].username).toBe('bulk49');
    expect(more.customers.map((c) => c.username)).not.toContain(first.username);
  });
});

describe('adjust the balance', () => {
  it('credits with a reason as an ordinary ledger transfer, tells the customer live, and logs who, what, when, from where', async () => {
    const bob = await freshUser(d.deps, { prefix: 'bobadj' });
    const r = await op().customers.adjust_balance({
      id: bob.id,
      amount: '12.50',
      reason: 'Sorry for the outage',
      key: 'console-key-1',
    });
    expect(r).toEqual({ applied: true, balance_micros: 12_500_000 });
    const line = await lastLine();
    expectOperatorLine(line, 'billing adjust');
    expect(line.detail).toEqual({
      user_id: bob.id,
      username: bob.username,
      amount: 12_500_000,
      reason: 'Sorry for the outage',
      key: 'console-key-1',
    });
    // The customer's own history and balance.
    const tx = await d.caller(bob.token).billing.get_transactions({});
    expect(tx.transactions[0]).toMatchObject({ description: 'Sorry for the outage', amount: 12.5 });
    expect((await d.caller(bob.token).billing.get_balance()).balance).toBe(12.5);
    const ev = await d.db
      .selectFrom('events')
      .selectAll()
      .where('user_id', '=', bob.id)
      .where('type', '=', 'update_balance')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(ev.payload)).toEqual({ balance: 12.5 });
    // A debit.
    expect(
      await op().customers.adjust_balance({
        id: bob.id,
        amount: '-2.5',
        reason: 'double credit',
        key: 'console-key-2',
      }),
    ).toEqual({ applied: true, balance_micros: 10_000_000 });
  });

  it('credits once when the same submit arrives 100 times at once from 100 addresses', async () => {
    const cid = await freshUser(d.deps, { prefix: 'cid' });
    const [transfers, lines] = [await transferCount(), await logTotal()];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        d.caller(operator.token, `127.0.${i >> 8}.${(i & 255) + 1}`).console.customers.adjust_balance({
          id: cid.id,
          amount: '25',
          reason: 'goodwill',
          key: 'double-submit-0001',
        }),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(results.every((r) => r.balance_micros === 25_000_000)).toBe(true);
    expect(await balance(cid.id)).toBe(25_000_000);
    expect(await transferCount()).toBe(transfers + 1);
    expect(await logTotal()).toBe(lines + 1);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const dan = await freshUser(d.deps, { prefix: 'danbad' });
    await op().customers.adjust_balance({ id: dan.id, amount: '1', reason: 'start', key: 'dan-start' });
    const [transfers, lines] = [await transferCount(), await logTotal()];
    const zod = [
      [{ id: dan.id, amount: '0', reason: 'x', key: 'dan-1' }, 'amount: must not be zero'],
      [{ id: dan.id, amount: 'ten', reason: 'x', key: 'dan-1' }, 'amount: must be a dollar amount such as 25 or -3.50'],
      [{ id: dan.id, amount: '10001', reason: 'x', key: 'dan-1' }, 'amount: must be at most 10000 dollars either way'],
      [
        { id: dan.id, amount: '1', reason: '   ', key: 'dan-1' },
        'reason: a reason is required (the customer sees it in their history)',
      ],
      [{ id: dan.id, amount: '1', reason: 'x', key: 'bad key!' }, 'key: must be 1-100 letters, digits or . : _ -'],
    ] as const;
    for (const [input, message] of zod) {
      const err = await rejection(op().customers.adjust_balance(input));
      expect(err.code).toBe('BAD_REQUEST');
      expect(describeZodError(err.cause as ZodError)).toBe(message);
    }
    const over = await rejection(
      op().customers.adjust_balance({ id: dan.id, amount: '-5', reason: 'too much', key: 'dan-2' }),
    );
    expect([over.code, over.message]).toEqual([
      'BAD_REQUEST',
      `${dan.username}'s balance is lower than the debit of $5.00.`,
    ]);
    const nobody = await rejection(
      op().customers.adjust_balance({ id: 999_999, amount: '5', reason: 'x', key: 'dan-3' }),
    );
    expect([nobody.code, nobody.message]).toEqual(['NOT_FOUND', 'No customer #999999.']);
    // The key of an earlier adjustment, for another amount: refused, the first stands.
    const reused = await rejection(
      op().customers.adjust_balance({ id: dan.id, amount: '2', reason: 'start', key: 'dan-start' }),
    );
    expect([reused.code, reused.message]).toEqual([
      'CONFLICT',
      'This key was already used for a different adjustment; nothing was changed.',
    ]);
    expect(await transferCount()).toBe(transfers);
    expect(await logTotal()).toBe(lines);
    expect(await balance(dan.id)).toBe(1_000_000);
  });

  it('the CLI and the console post the same transfer through the same service, and share keys', async () => {
    const eve = await freshUser(d.deps, { prefix: 'evecli' });
    const viaCli = await cli(
      'billing',
      'adjust',
      eve.username,
      '+3',
      '--reason',
      'same service',
      '--key',
      'shared-key',
    );
    expect(viaCli).toMatchObject({ code: 0, out: [`${eve.username}: credited $3.00, balance $3.00`] });
    expect(await lastLine()).toMatchObject({
      action: 'billing adjust',
      actor: 'cli',
      address: 'cli',
      operator: null,
      detail: { user_id: eve.id, amount: 3_000_000, reason: 'same service', key: 'shared-key' },
    });
    // The console with the CLI's key: already applied, nothing more.
    expect(
      await op().customers.adjust_balance({ id: eve.id, amount: '3', reason: 'same service', key: 'shared-key' }),
    ).toEqual({ applied: false, balance_micros: 3_000_000 });
    await op().customers.adjust_balance({ id: eve.id, amount: '3', reason: 'same service', key: 'console-own' });
    const rows = await d.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('credit_account', '=', userAccount(eve.id))
      .orderBy('id')
      .execute();
    const shape = (t: (typeof rows)[number]) => ({
      debit: t.debit_account,
      credit: t.credit_account,
      amount: t.amount,
      kind: t.kind,
      description: t.description,
    });
    expect(rows).toHaveLength(2);
    expect(shape(rows[0])).toEqual(shape(rows[1]));
    expect(shape(rows[0])).toMatchObject({ debit: PLATFORM.adjustments, kind: 'adjustment' });
    expect(rows.map((r) => r.idempotency_key)).toEqual(['operator-adjust:shared-key', 'operator-adjust:console-own']);
    // An operator key cannot take another writer's key (a gift code's, here).
    await d.db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: 'coupon:424242',
        debit: PLATFORM.giftCodes,
        credit: userAccount(eve.id),
        amount: 1,
        kind: 'gift_code',
        description: 'Gift code',
      }),
    );
    expect(
      (await op().customers.adjust_balance({ id: eve.id, amount: '1', reason: 'x', key: 'coupon:424242' })).applied,
    ).toBe(true);
  });
});

describe('disable, enable, reset 2FA, resend verification', () => {
  it('disables (signing the customer out) and enables, from the console and the CLI alike', async () => {
    const fay = await freshUser(d.deps, { prefix: 'faydis' });
    expect(await op().customers.disable({ id: fay.id })).toEqual({ changed: true });
    expectOperatorLine(await lastLine(), 'users disable');
    expect((await lastLine()).detail).toEqual({ user_id: fay.id, username: fay.username });
    expect((await rejection(d.caller(fay.token).auth.get_tfa())).code).toBe('UNAUTHORIZED');
    expect((await op().customers.get({ id: fay.id })).customer).toMatchObject({ disabled: true, live_sessions: 0 });
    const lines = await logTotal();
    expect(await op().customers.disable({ id: fay.id })).toEqual({ changed: false });
    expect(await cli('users', 'disable', fay.username)).toMatchObject({
      code: 0,
      out: [`${fay.username} is already disabled`],
    });
    expect(await logTotal()).toBe(lines);

    expect(await cli('users', 'enable', fay.username)).toMatchObject({ code: 0, out: [`${fay.username} is enabled`] });
    expect(await lastLine()).toMatchObject({ action: 'users enable', actor: 'cli', detail: { user_id: fay.id } });
    expect((await d.caller().auth.login({ username: fay.username, password: fay.password })).success).toBe(true);
    expect(await op().customers.enable({ id: fay.id })).toEqual({ changed: false });
    // Console disable, CLI sees it; console enable.
    await op().customers.disable({ id: fay.id });
    expect(await cli('users', 'enable', fay.username)).toMatchObject({ out: [`${fay.username} is enabled`] });
    await op().customers.disable({ id: fay.id });
    expect(await op().customers.enable({ id: fay.id })).toEqual({ changed: true });
    expectOperatorLine(await lastLine(), 'users enable');

    const self = await rejection(op().customers.disable({ id: operator.id }));
    expect([self.code, self.message]).toEqual(['BAD_REQUEST', 'You cannot disable your own account.']);
    expect((await rejection(op().customers.enable({ id: 999_999 }))).code).toBe('NOT_FOUND');
  });

  it('resets 2FA only with an identity check, which the log keeps; the customer is told', async () => {
    const gus = await freshUser(d.deps, { prefix: 'gus2fa', tfa: true });
    const lines = await logTotal();
    const err = await rejection(op().customers.reset_2fa({ id: gus.id, identity_check: 'ok' }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(describeZodError(err.cause as ZodError)).toBe(
      'identity_check: say how you checked who is asking (at least 10 characters)',
    );
    expect(await cli('users', 'reset-2fa', gus.username)).toMatchObject({ code: 2 });
    expect((await op().customers.get({ id: gus.id })).customer.tfa).toBe(true);
    expect(await logTotal()).toBe(lines);

    const check = 'Called the number on file; they read back their last deposit txid';
    expect(await op().customers.reset_2fa({ id: gus.id, identity_check: check })).toEqual({ changed: true });
    expectOperatorLine(await lastLine(), 'users reset-2fa');
    expect((await lastLine()).detail).toEqual({ user_id: gus.id, username: gus.username, identity_check: check });
    const row = await d.db
      .selectFrom('users')
      .select(['tfa_enabled', 'tfa_secret'])
      .where('id', '=', gus.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ tfa_enabled: 0, tfa_secret: null });
    const p = await op().customers.get({ id: gus.id });
    expect(p.notifications[0]).toMatchObject({
      message: expect.stringContaining('Two-factor authentication was turned off'),
      cleared: false,
    });
    // They log in with the password alone now.
    expect((await d.caller().auth.login({ username: gus.username, password: gus.password })).auth_token).toBeTruthy();
    const again = await rejection(op().customers.reset_2fa({ id: gus.id, identity_check: check }));
    expect(again.message).toBe(`${gus.username} does not have two-factor authentication on.`);

    // The CLI does the same through the same service.
    const hal = await freshUser(d.deps, { prefix: 'hal2fa', tfa: true });
    expect(await cli('users', 'reset-2fa', hal.username, '--check', 'video call, ID card matched')).toMatchObject({
      code: 0,
    });
    expect(await lastLine()).toMatchObject({
      action: 'users reset-2fa',
      actor: 'cli',
      detail: { user_id: hal.id, identity_check: 'video call, ID card matched' },
    });
  });

  it('resends the verification mail (older links stop working), and refuses a verified address', async () => {
    const ivy = await freshUser(d.deps, { prefix: 'ivyver', verified: false });
    const mails = async () => d.db.selectFrom('mail_outbox').selectAll().where('to_addr', '=', ivy.email).execute();
    const before = (await mails()).length;
    const r = await op().customers.resend_verification({ id: ivy.id });
    expect(r).toEqual({ success: true, message: `A new verification link was sent to ${ivy.email}.` });
    expect((await mails()).length).toBe(before + 1);
    expectOperatorLine(await lastLine(), 'users resend-verification');
    // Registration's link and the new one: only the new one is still usable.
    const tokens = await d.db
      .selectFrom('email_tokens')
      .select(['used_at'])
      .where('user_id', '=', ivy.id)
      .where('kind', '=', 'verify')
      .execute();
    expect(tokens.length).toBe(2);
    expect(tokens.filter((t) => t.used_at === null)).toHaveLength(1);

    expect(await cli('users', 'resend-verification', ivy.username)).toMatchObject({
      code: 0,
      out: [`verification link queued to ${ivy.email}`],
    });
    expect((await mails()).length).toBe(before + 2);

    const verified = await freshUser(d.deps, { prefix: 'jonver' });
    const lines = await logTotal();
    const err = await rejection(op().customers.resend_verification({ id: verified.id }));
    expect([err.code, err.message]).toEqual([
      'BAD_REQUEST',
      `${verified.username}'s email address is already verified.`,
    ]);
    expect(await logTotal()).toBe(lines);
  });
});
