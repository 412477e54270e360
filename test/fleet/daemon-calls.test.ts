import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressIndexActivity, forDisplay } from '../../src/server/fleet/daemons/activity';
import { coinsToSat, jsonCoinsToSat, satToCoins } from '../../src/server/fleet/daemons/amounts';
import { masternodeConfLine, masternodeGenkey, startAliasCommand } from '../../src/server/fleet/daemons/classic';
import { observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { BURN_MESSAGES, checkBurn } from '../../src/server/fleet/daemons/burn';
import { governanceProposals, protxInfo, registerPrepare, registerSubmit } from '../../src/server/fleet/daemons/dash';
import { RpcError } from '../../src/server/fleet/daemons/jsonrpc';
import { observeMonero, registrationCommand, serviceNodeKey } from '../../src/server/fleet/daemons/monero';
import { startSimulator, type SimulatorServer } from '../../src/server/fleet/simulator/server';
import { tempDataDir } from '../support/server';
import { waitFor } from '../support/wait';

// The platform's daemon calls against the coin-daemon simulator over real HTTP: each
// answer is read by the same reader that reads a real daemon's.
let sim: SimulatorServer;
const dir = tempDataDir();
const ep = (id: string) => ({ host: '127.0.0.1', port: sim.port, path: `/n/${id}` });
const rpc = (id: string) => ({ endpoint: ep(id), timeoutMs: 3000 });
const admin = (method: string, p: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${sim.port}/admin${p}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const raw = (id: string, method: string, params: unknown[]) =>
  fetch(`http://127.0.0.1:${sim.port}/n/${id}/`, {
    method: 'POST',
    body: JSON.stringify({ id: 1, method, params }),
  }).then((r) => r.json());
const SIG = Buffer.alloc(65, 7).toString('base64');

beforeAll(async () => {
  sim = await startSimulator({ stateFile: path.join(dir, 'sim.json'), log: () => {} });
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('amounts', () => {
  it('keeps coin amounts exact as satoshis', () => {
    expect(coinsToSat('1000')).toBe(100_000_000_000);
    expect(coinsToSat('0.00000001')).toBe(1);
    expect(coinsToSat('12.5')).toBe(1_250_000_000);
    expect(() => coinsToSat('1.000000001')).toThrow(/not a coin amount/);
    expect(() => coinsToSat('1e3')).toThrow(/not a coin amount/);
    expect(jsonCoinsToSat(0.1 + 0.2)).toBe(30_000_000); // 0.30000000000000004 as a daemon never sends it
    expect(jsonCoinsToSat(9_999_999.99999999)).toBe(999_999_999_999_999);
    expect(satToCoins(1_250_000_000)).toBe('12.5');
    expect(satToCoins(-1)).toBe('-0.00000001');
    expect(satToCoins(100_000_000_000)).toBe('1000');
  });
});

describe('DIP003 start: register_submit', () => {
  it("submits through the node's daemon: dashd's errors for garbage, then the node runs", async () => {
    expect(
      (await admin('POST', '/nodes', { nodeId: 'r1', coin: 'dash', rpc: 'dash', blockTimeS: 0.1, syncSeconds: 0 }))
        .status,
    ).toBe(200);
    const opKey: string = (await raw('r1', 'bls', ['generate'])).result.public;
    const good = `03000100${'00'.repeat(40)}${opKey}${'00'.repeat(40)}`;
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => (e instanceof RpcError ? [e.code, e.daemonMessage] : e),
      );
    expect(await refused(registerSubmit(rpc('r1'), 'nothex', SIG))).toEqual([-8, 'transaction not deserializable']);
    expect(await refused(registerSubmit(rpc('r1'), `01000000${opKey}`, SIG))).toEqual([
      -8,
      'transaction not a ProRegTx',
    ]);
    expect(await refused(registerSubmit(rpc('r1'), `03000100${'11'.repeat(80)}`, SIG))).toEqual([
      -8,
      'transaction payload not deserializable',
    ]);
    expect(await refused(registerSubmit(rpc('r1'), good, 'not base64!'))).toEqual([-8, 'malformed base64 encoding']);
    expect(await refused(registerSubmit(rpc('r1'), good, Buffer.alloc(64).toString('base64')))).toEqual([
      -1,
      'bad-protx-sig (code 16)',
    ]);
    // Nothing of that registered the node.
    expect(await observeBitcoin(rpc('r1'), 'dash', true)).toMatchObject({
      startRequired: true,
      networkStatus: 'WAITING_FOR_PROTX',
      posePenalty: null,
    });

    const proTxHash = await registerSubmit(rpc('r1'), good, SIG);
    expect(proTxHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await refused(registerSubmit(rpc('r1'), good, SIG))).toEqual([-1, 'bad-protx-dup-key (code 18)']);
    expect((await observeBitcoin(rpc('r1'), 'dash', true)).startRequired).toBe(false);
    const running = await waitFor(
      async () => {
        const o = await observeBitcoin(rpc('r1'), 'dash', true);
        return o.networkStatus === 'ENABLED' && o.lastPaidHeight !== null && o;
      },
      10_000,
      'the registered node to be enabled and paid',
    );
    expect(running).toMatchObject({ startRequired: false, posePenalty: 0, poseBanHeight: null });
    // The registration survives a simulator restart.
    await sim.close();
    sim = await startSimulator({ stateFile: path.join(dir, 'sim.json'), log: () => {} });
    expect((await protxInfo(rpc('r1'), proTxHash)).registeredHeight).toBeGreaterThan(0);
  });

  it('prepared on the node, signed by the owner: the owner pastes only the signature', async () => {
    await admin('POST', '/nodes', { nodeId: 'r2', coin: 'dash', rpc: 'dash', blockTimeS: 0.1, syncSeconds: 0 });
    const opKey: string = (await raw('r2', 'bls', ['generate'])).result.public;
    const collateral = 'f'.repeat(64);
    const base = {
      collateralHash: collateral,
      collateralIndex: 1,
      service: '203.0.113.7:9999',
      ownerAddress: 'XownerXownerXownerXownerXownerXow',
      operatorPubKey: opKey,
      votingAddress: 'XvoteXvoteXvoteXvoteXvoteXvoteXvo',
      operatorReward: '0',
      payoutAddress: 'XpayXpayXpayXpayXpayXpayXpayXpayX',
    };
    const prepared = await registerPrepare(rpc('r2'), base);
    expect(prepared.tx.startsWith('03000100')).toBe(true);
    expect(prepared.collateralAddress).toHaveLength(34);
    expect(prepared.signMessage).toMatch(
      new RegExp(`^${base.payoutAddress}\\|0\\|${base.ownerAddress}\\|${base.votingAddress}\\|[0-9a-f]{64}$`),
    );
    await expect(registerPrepare(rpc('r2'), { ...base, operatorPubKey: 'abc' })).rejects.toThrow(
      /operatorPubKey must be a valid BLS public key \(-8\)/,
    );
    await expect(registerPrepare(rpc('r2'), { ...base, service: 'somewhere' })).rejects.toThrow(
      /invalid network address/,
    );
    expect(await registerSubmit(rpc('r2'), prepared.tx, SIG)).toMatch(/^[0-9a-f]{64}$/);
    expect((await observeBitcoin(rpc('r2'), 'dash', true)).startRequired).toBe(false);
  });

  it('shows a forced PoSe penalty and a ban in the observation', async () => {
    expect((await admin('POST', '/nodes/r1/pose', { penalty: 66 })).status).toBe(200);
    expect(await observeBitcoin(rpc('r1'), 'dash', true)).toMatchObject({
      networkStatus: 'ENABLED',
      posePenalty: 66,
      poseBanHeight: null,
    });
    await admin('POST', '/nodes/r1/force', { status: 'POSE_BANNED' });
    const banned = await observeBitcoin(rpc('r1'), 'dash', true);
    expect(banned.networkStatus).toBe('POSE_BANNED');
    expect(banned.poseBanHeight).toBeGreaterThan(0);
    expect((await admin('POST', '/nodes/r1/pose', { penalty: -1 })).status).toBe(400);
    await admin('POST', '/nodes/r1/pose', { penalty: null });
    await admin('POST', '/nodes/r1/force', { status: null });
    expect((await observeBitcoin(rpc('r1'), 'dash', true)).posePenalty).toBe(0);
  });
});

describe('quick setup', () => {
  const key = 'aa'.repeat(32);
  it('a simulated node restarted with the owner key runs as the registration', async () => {
    await admin('POST', '/nodes', { nodeId: 'q1', coin: 'rtm', rpc: 'dash', blockTimeS: 0.1, syncSeconds: 0 });
    expect((await observeBitcoin(rpc('q1'), 'dash', true)).startRequired).toBe(true);
    expect((await admin('POST', '/nodes/q1/operator-key', { secret: 'nothex' })).status).toBe(400);
    expect((await admin('POST', '/nodes/q1/operator-key', { secret: key })).status).toBe(200);
    await waitFor(
      async () => (await observeBitcoin(rpc('q1'), 'dash', true)).networkStatus === 'ENABLED',
      10_000,
      'the quick-setup node to run',
    );
  });
});

describe('governance', () => {
  it('lists the proposals with exact amounts, and their votes move with the chain', async () => {
    const first = await governanceProposals(rpc('r1'));
    expect(first.map((p) => [p.name, p.payment_amount])).toEqual([
      ['dash-exchange-listing', '300'],
      ['dash-core-development', '1250.5'],
      ['dash-conference-2025', '75.25'],
    ]);
    expect(first.find((p) => p.name === 'dash-conference-2025')!.status).toBe('expired');
    for (const p of first) {
      expect(p.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(p.end_epoch).toBeGreaterThan(p.start_epoch);
      expect(p.payment_address).toHaveLength(34);
    }
    const later = await waitFor(
      async () => {
        const now = await governanceProposals(rpc('r1'));
        return now[0].yes > first[0].yes && now;
      },
      10_000,
      'votes to grow',
    );
    expect(later[0].yes).toBeGreaterThan(first[0].yes);
    // A classic daemon has no governance: the call is refused as by a real one.
    await admin('POST', '/nodes', { nodeId: 'c1', coin: 'pivx', rpc: 'bitcoin', blockTimeS: 1, syncSeconds: 0 });
    await expect(governanceProposals(rpc('c1'))).rejects.toThrow(/Method not found/);
  });
});

describe('collateral activity through the address index', () => {
  it('balance is the collateral plus every payment, with a transaction per payment', async () => {
    await admin('POST', '/nodes', {
      nodeId: 'a1',
      coin: 'firo',
      rpc: 'dash',
      blockTimeS: 0.05,
      syncSeconds: 0,
      registered: true,
      collateralSat: coinsToSat('1000'),
      rewardSat: coinsToSat('2.5'),
    });
    const info = await waitFor(
      async () => {
        const o = await observeBitcoin(rpc('a1'), 'dash', true);
        return o.lastPaidHeight !== null && o;
      },
      10_000,
      'a first payment',
    );
    const { result: st } = await raw('a1', 'masternode', ['status']);
    const address: string = (await raw('a1', 'protx', ['info', st.proTxHash])).result.collateralAddress;
    expect(address).toMatch(/^X[1-9A-HJ-NP-Za-km-z]{33}$/);
    // The totals and the history are two calls: a block may fall between them, so read until both tell the same story.
    const paymentsIn = (x: { balanceSat: number }) => (x.balanceSat - coinsToSat('1000')) / coinsToSat('2.5');
    const a = await waitFor(
      async () => {
        const x = await addressIndexActivity(rpc('a1'), address, { limit: 5 });
        return x.transactions.length >= 3 && x.transactions.length === Math.min(5, paymentsIn(x) + 1) && x;
      },
      10_000,
      'three transactions',
    );
    const payments = paymentsIn(a);
    expect(Number.isInteger(payments) && payments >= 2).toBe(true);
    expect(a.sentSat).toBe(0);
    expect(a.transactions.length).toBe(Math.min(5, payments + 1));
    expect(a.transactions[0].block).toBeGreaterThanOrEqual(info.lastPaidHeight!);
    for (const t of a.transactions) {
      expect(t.time).toBeGreaterThan(1_600_000_000);
      expect(t.amountSat).toBe(
        coinsToSat(t.block === a.transactions.at(-1)!.block && payments + 1 <= 5 ? '1000' : '2.5'),
      );
    }
    const shown = forDisplay(a);
    expect(shown.balance).toBe(Number(satToCoins(a.balanceSat)));
    expect(shown.transactions[0]).toMatchObject({
      amount: 2.5,
      human_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    // An address the daemon has never seen holds nothing.
    expect(await addressIndexActivity(rpc('a1'), 'XnobodyXnobodyXnobodyXnobodyXnobo')).toMatchObject({
      balanceSat: 0,
      transactions: [],
    });
  });
});

describe('burn check (SIN)', () => {
  const sin = () => ({ endpoint: { host: '127.0.0.1', port: sim.port, path: '/c/sin' }, timeoutMs: 3000 });
  const txid = (prefix: string) => prefix + 'e'.repeat(64 - prefix.length);
  it('finds a burn, and tells why anything else is refused', async () => {
    expect(await checkBurn(sin(), txid('b0b0'))).toEqual({
      ok: true,
      output_id: `${txid('b0b0')}-0`,
      message: BURN_MESSAGES.ok,
    });
    expect(await checkBurn(sin(), txid('01d0'))).toEqual({ ok: false, output_id: null, message: BURN_MESSAGES.tooOld });
    expect(await checkBurn(sin(), txid('5e4d'))).toEqual({
      ok: false,
      output_id: null,
      message: BURN_MESSAGES.notBurn,
    });
    expect(await checkBurn(sin(), txid('77'))).toEqual({ ok: false, output_id: null, message: BURN_MESSAGES.notFound });
    expect(await checkBurn(sin(), 'xyz')).toEqual({ ok: false, output_id: null, message: BURN_MESSAGES.invalid });
    expect(await checkBurn(sin(), txid('b0b0'), { minSat: coinsToSat('2000000') })).toMatchObject({
      ok: false,
      message: BURN_MESSAGES.tooSmall,
    });
    // A burn the test registers: just inside and just past one year.
    const now = Math.floor(Date.now() / 1000);
    const fresh = 'c'.repeat(64);
    const stale = 'd'.repeat(64);
    expect(
      (
        await admin('POST', '/txs', {
          txid: fresh,
          coin: 'sin',
          burnSat: coinsToSat('1000000'),
          time: now - 364 * 86_400,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin('POST', '/txs', {
          txid: stale,
          coin: 'sin',
          burnSat: coinsToSat('1000000'),
          time: now - 366 * 86_400,
        })
      ).status,
    ).toBe(200);
    expect((await admin('POST', '/txs', { txid: 'nothex', coin: 'sin', burnSat: 1, time: now })).status).toBe(400);
    expect((await checkBurn(sin(), fresh.toUpperCase())).output_id).toBe(`${fresh}-0`);
    expect((await checkBurn(sin(), stale)).message).toBe(BURN_MESSAGES.tooOld);
    // Another coin does not see SIN's transaction.
    expect((await checkBurn({ ...sin(), endpoint: { ...sin().endpoint, path: '/c/dash' } }, fresh)).message).toBe(
      BURN_MESSAGES.notFound,
    );
    // No daemon to ask.
    expect(await checkBurn({ endpoint: { host: '127.0.0.1', port: 1 }, timeoutMs: 1000 }, txid('b0b0'))).toEqual({
      ok: false,
      output_id: null,
      message: BURN_MESSAGES.unavailable,
    });
  });
});

describe('monero-type service nodes', () => {
  it("makes the owner's register command through the node, in Oxen's and Beldex's words", async () => {
    await admin('POST', '/nodes', { nodeId: 'm1', coin: 'bdx', rpc: 'monero', blockTimeS: 0.1, syncSeconds: 0 });
    const key = await serviceNodeKey(ep('m1'), 3000, 'master');
    expect(key).toBe(await serviceNodeKey(ep('m1'), 3000, 'service'));
    const cmd = await registrationCommand(ep('m1'), 3000, ['100', 'bxcEXAMPLEaddress', '100%'], { word: 'master' });
    expect(cmd).toMatch(new RegExp(`^register_master_node 100 bxcEXAMPLEaddress 100% \\d{10} ${key} [0-9a-f]{128}$`));
    expect(
      (await registrationCommand(ep('m1'), 3000, ['100', 'LEXAMPLE', '100%'])).startsWith('register_service_node '),
    ).toBe(true);
    await expect(registrationCommand(ep('m1'), 3000, ['100'], { word: 'master' })).rejects.toThrow(/Invalid arguments/);
    // Not registered until the owner's wallet sends the command (here: the simulator's admin call).
    expect(await observeMonero(ep('m1'), 3000, true, 'master')).toMatchObject({
      startRequired: true,
      networkStatus: null,
    });
    await admin('POST', '/nodes/m1/register');
    expect(await observeMonero(ep('m1'), 3000, true, 'master')).toMatchObject({
      startRequired: false,
      networkStatus: 'ACTIVE',
    });
  });
});

describe('classic masternodes', () => {
  it("gets a masternode key from the node's daemon and writes the owner's masternode.conf line", async () => {
    await admin('POST', '/nodes', { nodeId: 'k1', coin: 'crw', rpc: 'bitcoin', blockTimeS: 1, syncSeconds: 0 });
    const key = await masternodeGenkey(rpc('k1'));
    expect(key).toMatch(/^7[1-9A-HJ-NP-Za-km-z]{50}$/);
    expect(await masternodeGenkey(rpc('k1'))).not.toBe(key);
    // PIVX-era daemons name it createmasternodekey: this one does not know it, as a Dash fork would not.
    await expect(masternodeGenkey(rpc('k1'), 'createmasternodekey')).rejects.toThrow(/Method not found/);
    const txid = 'ab'.repeat(32);
    expect(masternodeConfLine({ alias: 'my node', ip: '203.0.113.7', port: 9340, privkey: key, txid, index: 1 })).toBe(
      `my_node 203.0.113.7:9340 ${key} ${txid} 1`,
    );
    expect(masternodeConfLine({ alias: '', ip: '2001:db8::7', port: 9340, privkey: key, txid, index: 0 })).toBe(
      `mn1 [2001:db8::7]:9340 ${key} ${txid} 0`,
    );
    expect(startAliasCommand('my node')).toBe('masternode start-alias my_node');
  });
});
