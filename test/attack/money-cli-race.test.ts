import { spawn } from 'node:child_process';
import { MAINNET } from '../support/addresses';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initialChargeAmount } from '../../src/server/billing/charge-days';
import { PLATFORM, accountBalance, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { currentPrices } from '../../src/server/coins/prices';
import { findCoin } from '../../src/server/coins/queries';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// The operator's CLI and the server write the same database from two processes. Debits
// from CLI processes racing the server's own debits (deploys paying their Initial Charge)
// on one balance: every writer waits its turn (BEGIN IMMEDIATE), no balance goes below
// zero, each side's answer says what it wrote, nothing fails for being busy.

const dataDir = tempDataDir('nodekeep-cli-race-');
let s: TestServer;
beforeAll(async () => {
  // Users funded by the operator, not by a paid deposit: the free-account limits (test/attack/free-limits) are not this test's subject.
  s = await startTestServer(
    { ...fastFleetEnv(dataDir), FREE_NODE_LIMIT: '1000', FREE_CAPACITY_SHARE: '100%' },
    { dataDir },
  );
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/server/command-line.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

it(
  '6 CLI debits in processes of their own racing 30 deploys over HTTP on one balance: nothing overdrawn, every answer true to the ledger',
  { timeout: scaled(180_000) },
  async () => {
    const u = await freshUser(s.deps, { prefix: 'clirace' });
    // A CLI process takes a second or more to start (more on a busy machine): the deploys
    // are spread over three times what one takes here, so the writers interleave.
    const t0 = Date.now();
    await cli(['billing', 'adjust', 'nobody']);
    const spread = Math.max(4500, 3 * (Date.now() - t0));
    // Enough for three debits and half the deploys: some of both, never all (a deploy's
    // first day is prorated, so its price depends on the time of day).
    const firstDay = initialChargeAmount(currentPrices((await findCoin(s.deps.db, 'satori'))!).dedicated, Date.now());
    const start = 3 * 750_000 + 15 * firstDay;
    await s.deps.db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: `clirace-funds:${u.id}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(u.id),
        amount: start,
        kind: 'adjustment',
        description: 'Funds',
      }),
    );
    const debits = Array.from({ length: 6 }, (_, i) =>
      cli(['billing', 'adjust', u.username, '-0.75', '--reason', 'race', '--key', `clirace-${u.id}-${i}`]),
    );
    // The first half of the deploys cannot take the debits' share (each costs at most
    // firstDay); the second half waits for a CLI process to have answered, which the
    // balance then still covers. A CLI that starts slower than all thirty deploys (a quiet
    // machine with fast answers) would otherwise find the balance gone every time, and
    // the race would not be one.
    const firstCliAnswer = Promise.race(debits);
    const deploys = Array.from({ length: 30 }, async (_, i) => {
      if (i >= 15) await firstCliAnswer;
      await new Promise((r) => setTimeout(r, (i * spread) / 30));
      return requestFrom(loopback(i, 50_000), `${s.url}/api/deploy_server`, {
        body: { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 },
        token: u.token,
      });
    });
    const [cliAnswers, httpAnswers] = await Promise.all([Promise.all(debits), Promise.all(deploys)]);

    // Each CLI run either debited or was refused for the balance; none failed otherwise.
    for (const [i, r] of cliAnswers.entries()) {
      const row = await s.deps.db
        .selectFrom('ledger_transfers')
        .select('amount')
        .where('idempotency_key', '=', `operator-adjust:clirace-${u.id}-${i}`)
        .executeTakeFirst();
      if (r.code === 0) {
        expect(r.out).toMatch(/debited \$0\.75, balance \$\d+\.\d+/);
        expect(row?.amount).toBe(750_000);
      } else {
        expect({ code: r.code, err: r.err.trim() }).toEqual({
          code: 1,
          err: expect.stringMatching(/^error: .*balance is lower than the debit/),
        });
        expect(row).toBeUndefined();
      }
    }
    // Each deploy either made its node and paid for it, or was refused with nothing written.
    for (const a of httpAnswers) {
      if (a.status !== 200)
        expect(a.body.message, JSON.stringify(a.body)).toMatch(
          /^Your balance does not cover this node's first day of hosting/,
        );
    }
    const nodes = await s.deps.db.selectFrom('nodes').select('id').where('user_id', '=', u.id).execute();
    expect(nodes).toHaveLength(httpAnswers.filter((a) => a.status === 200).length);
    const charges = await s.deps.db
      .selectFrom('ledger_transfers')
      .select('amount')
      .where('debit_account', '=', userAccount(u.id))
      .where('kind', '=', 'initial_charge')
      .execute();
    expect(charges).toHaveLength(nodes.length);
    const cliDebited = cliAnswers.filter((r) => r.code === 0).length * 750_000;
    const balance = await accountBalance(s.deps.db, userAccount(u.id));
    expect(balance).toBe(start - cliDebited - charges.reduce((a, c) => a + c.amount, 0));
    expect(balance).toBeGreaterThanOrEqual(0);
    // Both kinds of writer got through: the race really was one.
    expect(cliDebited).toBeGreaterThan(0);
    expect(nodes.length).toBeGreaterThan(0);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  },
);
