import fs from 'node:fs';
import path from 'node:path';
import { START_UNDER_WAY } from '../../src/server/nodes/actions';
import { START_CLAIM_MS } from '../../src/server/nodes/repository';
import { bls12_381 } from '@noble/curves/bls12-381';
import { EIP55_MISMATCH } from '../../src/shared/evm-address';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNodeId, requestDestroy, requestNode } from '../../src/server/nodes/lifecycle';
import { systemActor } from '../../src/server/operator/log';
import { findNode } from '../../src/server/nodes/fleet-queries';
import { validatorExitFile } from '../../src/server/nodes/validator-exit';
import { sealSecrets } from '../../src/server/nodes/node-secrets';
import { DELETE_REASONS } from '../../src/shared/schemas/nodes';
import { pidsMatching, waitFor } from '../support/daemons';
import { liveClient } from '../support/live';
import { insertTestNode } from '../support/nodes';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, fundedUser, type FreshUser } from '../support/users';
import { fastFleetEnv } from '../support/fast-fleet';

// The owner's actions on a node, through the REST paths an API script uses, against the
// running platform with the simulator on fast clocks.

const dataDir = tempDataDir('nodekeep-actions-');
const fleetEnv = fastFleetEnv(dataDir);
const env = fleetEnv;

let s: TestServer;
const users = {} as Record<'owner' | 'other', FreshUser>;
const clients: ReturnType<typeof liveClient>[] = [];

type Who = 'owner' | 'other';
const call = async (method: 'GET' | 'POST', p: string, who: Who, body?: unknown) => {
  const r = await fetch(s.url + p, {
    method,
    headers: { authorization: `Bearer ${users[who].token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
};
const post = (p: string, body: unknown, who: Who = 'owner') => call('POST', p, who, body);
const detail = async (mn: string, who: Who = 'owner') =>
  (await call('GET', `/api/get_masternode?masternode=${mn}`, who)).body.data;
const row = (mn: string) => s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
const simAdmin = (p: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${simPort()}/admin${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json());
const rpc = (mn: string, method: string, params: unknown[] = []) =>
  fetch(`http://127.0.0.1:${simPort()}/n/${mn}/`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '1.0', id: 't', method, params }),
  }).then((r) => r.json());

const deps = () => ({ profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true });
const newNode = async (coinId: string, fields: Parameters<typeof requestNode>[3] = {}, who: Who = 'owner') => {
  const n = await requestNode(s.deps.db, deps(), { userId: users[who].id, coinId, plan: 'dedicated' }, fields);
  await s.deps.fleet.reconcile();
  return n.mn_id;
};
let seq = 0;
const testNode = async (coin_id: string, extra: Record<string, unknown> = {}, who: Who = 'owner') => {
  const mn_id = `${coin_id}-t${++seq}`;
  await insertTestNode(s.deps.db, { mn_id, user_id: users[who].id, coin_id, status: 'running', ...extra });
  return mn_id;
};

beforeAll(async () => {
  s = await startTestServer(env, { dataDir });
  for (const u of ['owner', 'other'] as const) users[u] = await fundedUser(s.deps, { prefix: u });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('alias', () => {
  it('sets, removes (null and empty), refuses bad characters and 49 characters, and tells the live page', async () => {
    const live = liveClient(s.url, users.owner.token);
    clients.push(live);
    await waitFor(async () => live.types().includes('sync'), 15_000, 'live');
    const mn = await testNode('pivx');
    expect(await post('/api/update_alias', { mn, alias: 'My node_1-a' })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await row(mn)).alias).toBe('My node_1-a');
    expect((await detail(mn)).alias).toBe('My node_1-a');
    await waitFor(
      async () => live.received.find((e) => e.type === 'refresh_masternode' && e.payload.mn_id === mn),
      15_000,
      'refresh_masternode',
    );
    await waitFor(async () => live.types().includes('refresh_masternodes'), 15_000, 'refresh_masternodes');

    const max = 'a'.repeat(48);
    expect((await post('/api/update_alias', { mn, alias: max })).status).toBe(200);
    expect((await row(mn)).alias).toBe(max);
    for (const bad of ['a'.repeat(49), 'bad<alias>', 'semi;colon', 'dot.name']) {
      const r = await post('/api/update_alias', { mn, alias: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.success).toBe(false);
      expect((await row(mn)).alias).toBe(max);
    }
    expect((await post('/api/update_alias', { mn, alias: '' })).status).toBe(200);
    expect((await row(mn)).alias).toBeNull();
    await post('/api/update_alias', { mn, alias: 'again' });
    expect((await post('/api/update_alias', { mn, alias: null })).status).toBe(200);
    expect((await row(mn)).alias).toBeNull();
  });
});

describe("another user's node", () => {
  it('answers every call exactly like a missing node and changes nothing', async () => {
    const mn = await testNode('eth', {
      validator_pubkey: 'ab'.repeat(48),
      fee_recipient: null,
      output_text: JSON.stringify({ pubkey: 'ab'.repeat(48), fee_recipient: null }),
    });
    const before = await row(mn);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/update_alias', { mn, alias: 'stolen' }],
      ['/api/delete_masternode', { mn, reason: DELETE_REASONS[0] }],
      ['/api/update_validator_fee', { mn, fee_recipient: '0x' + '1'.repeat(40), change_for: 'only_this' }],
      ['/api/register_submit', { mn, output: 'x' }],
      ['/api/quick_setup', { mn, secret: 'x' }],
    ];
    for (const [p, body] of calls) {
      const theirs = await post(p, body, 'other');
      const missing = await post(p, { ...body, mn: 'eth-doesnotexist' }, 'other');
      expect(theirs, p).toEqual({ status: 404, body: { success: false, message: 'Masternode not found.' } });
      expect(missing, p).toEqual(theirs);
    }
    for (const p of ['/api/get_masternode', '/api/get_proposals']) {
      const theirs = await call('GET', `${p}?masternode=${mn}`, 'other');
      expect(theirs, p).toEqual({ status: 404, body: { success: false, message: 'Masternode not found.' } });
    }
    expect(await row(mn)).toEqual(before);
    const other = await call('GET', '/api/get_masternodes', 'other');
    expect(other.body.masternodes.map((n: { mn_id: string }) => n.mn_id)).not.toContain(mn);
  });
});

describe('validator fee', () => {
  it('answers the spec messages under fee_recipient, refuses non-validators and a validator with no client to reach', async () => {
    const pubkey = 'cd'.repeat(48);
    const mn = await testNode('eth', {
      validator_pubkey: pubkey,
      fee_recipient: '0x' + 'a'.repeat(40),
      output_text: JSON.stringify({ pubkey, fee_recipient: '0x' + 'a'.repeat(40) }),
    });
    const fee = (fee_recipient: string, id = mn) =>
      post('/api/update_validator_fee', { mn: id, fee_recipient, change_for: 'only_this' });
    expect(await fee('')).toEqual({
      status: 400,
      body: { success: false, message: 'Address required', error_input: 'fee_recipient' },
    });
    for (const bad of ['0x123', 'ab' + 'c'.repeat(40), '0x' + 'g'.repeat(40)]) {
      expect(await fee(bad), bad).toEqual({
        status: 400,
        body: { success: false, message: 'Invalid address', error_input: 'fee_recipient' },
      });
    }
    // The right shape with one letter's case wrong: the EIP-55 checksum is what the message names.
    expect(await fee('0x52908400098527886e0F7030069857D2E4169EE7')).toEqual({
      status: 400,
      body: { success: false, message: EIP55_MISMATCH, error_input: 'fee_recipient' },
    });
    // No validator client holds this key (no Keymanager token): nothing changes.
    const before = await row(mn);
    expect(await fee('0x52908400098527886E0F7030069857D2E4169EE7')).toEqual({
      status: 503,
      body: {
        success: false,
        message: 'The fee recipient of this validator cannot be changed from the node page. Please contact support.',
      },
    });
    expect(await row(mn)).toEqual(before);

    const dash = await testNode('dash');
    expect(await fee('0x52908400098527886E0F7030069857D2E4169EE7', dash)).toEqual({
      status: 400,
      body: { success: false, message: 'Only validators have a fee recipient.', error_input: 'fee_recipient' },
    });
    expect((await row(dash)).fee_recipient).toBeNull();
  });

  // A validator deployed with its keystore: the simulator runs its validator client's
  // Keymanager API (Bearer token), as Lighthouse's `vc --http` does for a real node.
  const token = 'f0'.repeat(32);
  const km = (mn: string, p: string, init: { method?: string; token?: string | null; body?: unknown } = {}) =>
    fetch(`http://127.0.0.1:${simPort()}/n/${mn}${p}`, {
      method: init.method ?? 'GET',
      headers: init.token === null ? {} : { authorization: `Bearer ${init.token ?? token}` },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const liveValidator = async (pubkey: string, feeRecipient: string) => {
    const mn_id = newNodeId('eth');
    const secrets = sealSecrets(s.deps.secrets, mn_id, {
      keystore: '{"version":4}',
      keystore_password: 'pw',
      keymanager_token: token,
    });
    const mn = await newNode('eth', {
      mn_id,
      validator_pubkey: pubkey,
      fee_recipient: feeRecipient,
      output_text: JSON.stringify({ pubkey, fee_recipient: feeRecipient }),
      secrets,
    });
    await waitFor(
      async () => (await simAdmin('/nodes')).nodes.includes(mn) && (await detail(mn))?.state === 'live',
      15_000,
      'validator live',
    );
    return mn;
  };

  it("reaches the running validator client's Keymanager API first, then stores it and rewrites the output text", async () => {
    const pubkey = '0x' + '9a'.repeat(48);
    const first = '0x' + 'a'.repeat(40);
    const mn = await liveValidator(pubkey, first);
    // The deployed key is what the client holds, with the fee recipient given at deploy.
    expect(await km(mn, '/eth/v1/keystores')).toEqual({
      status: 200,
      body: { data: [{ validating_pubkey: pubkey, derivation_path: '', readonly: false }] },
    });
    expect(await km(mn, `/eth/v1/validator/${pubkey}/feerecipient`)).toEqual({
      status: 200,
      body: { data: { pubkey, ethaddress: first } },
    });
    expect((await km(mn, '/eth/v1/keystores', { token: null })).status).toBe(401);
    expect((await km(mn, '/eth/v1/keystores', { token: 'nope'.repeat(8) })).status).toBe(403);

    // EIP-55's own example, correctly checksummed.
    const good = '0x52908400098527886E0F7030069857D2E4169EE7';
    const ok = await post('/api/update_validator_fee', { mn, fee_recipient: good, change_for: 'only_this' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: expect.stringContaining(good) });
    expect(await km(mn, `/eth/v1/validator/${pubkey}/feerecipient`)).toEqual({
      status: 200,
      body: { data: { pubkey, ethaddress: good } },
    });
    const r = await row(mn);
    expect(r.fee_recipient).toBe(good);
    expect(JSON.parse(r.output_text!)).toEqual({ pubkey, fee_recipient: good });
    const d = await detail(mn);
    expect(d.setup).toMatchObject({ view: 'validator', fee_recipient: good });
    expect(d.setup.fields).toContainEqual({ label: 'Validator pubkey', value: pubkey, secret: false, href: null });
  });

  it('20 different fee changes at once end with the client and the row on the same address', async () => {
    const pubkey = '0x' + '6d'.repeat(48);
    const mn = await liveValidator(pubkey, '0x' + 'd'.repeat(40));
    const addrs = Array.from({ length: 20 }, (_, i) => '0x' + (i + 1).toString(16).padStart(2, '0').repeat(20));
    const answers = await Promise.all(
      addrs.map((fee_recipient) => post('/api/update_validator_fee', { mn, fee_recipient, change_for: 'only_this' })),
    );
    expect(answers.map((a) => a.status)).toEqual(addrs.map(() => 200));
    const client = (await km(mn, `/eth/v1/validator/${pubkey}/feerecipient`)).body.data.ethaddress;
    expect(addrs).toContain(client);
    expect((await row(mn)).fee_recipient).toBe(client);
    expect(JSON.parse((await row(mn)).output_text!).fee_recipient).toBe(client);
  });

  it('changes nothing when the validator client refuses (a token it does not take, a key it does not hold)', async () => {
    const pubkey = '0x' + '8b'.repeat(48);
    const first = '0x' + 'b'.repeat(40);
    const mn = await liveValidator(pubkey, first);
    const fee = () =>
      post('/api/update_validator_fee', { mn, fee_recipient: '0x' + 'c'.repeat(40), change_for: 'only_this' });
    // The platform's sealed token no longer matches the one the client runs with.
    const before = await row(mn);
    await s.deps.db
      .updateTable('nodes')
      .set({
        secrets: sealSecrets(s.deps.secrets, mn, {
          keystore: '{}',
          keystore_password: 'pw',
          keymanager_token: 'e1'.repeat(32),
        }),
      })
      .where('mn_id', '=', mn)
      .execute();
    expect(await fee()).toEqual({
      status: 400,
      body: {
        success: false,
        message:
          'Your validator client refused the new fee recipient (invalid API token). Your fee recipient was not changed.',
      },
    });
    expect(await km(mn, `/eth/v1/validator/${pubkey}/feerecipient`)).toEqual({
      status: 200,
      body: { data: { pubkey, ethaddress: first } },
    });
    expect((await row(mn)).fee_recipient).toBe(first);
    expect((await row(mn)).output_text).toBe(before.output_text);

    // The right token, but the row names a key the client does not hold.
    await s.deps.db
      .updateTable('nodes')
      .set({ secrets: before.secrets, validator_pubkey: '0x' + '7c'.repeat(48) })
      .where('mn_id', '=', mn)
      .execute();
    const r = await fee();
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^Your validator client refused the new fee recipient \(no validator with pubkey 0x(7c){48}\)\. Your fee recipient was not changed\.$/,
    );
    expect((await row(mn)).fee_recipient).toBe(first);
    expect(await km(mn, `/eth/v1/validator/${pubkey}/feerecipient`)).toEqual({
      status: 200,
      body: { data: { pubkey, ethaddress: first } },
    });
  });
});

describe('delete', () => {
  it('takes each listed reason and free text up to 1,000 characters; refuses Other alone and 1,001 characters', async () => {
    for (const reason of DELETE_REASONS.filter((r) => r !== 'Other')) {
      const mn = await testNode('pivx');
      const r = await post('/api/delete_masternode', { mn, reason });
      expect(r.status, reason).toBe(200);
      expect(r.body.success).toBe(true);
      expect(r.body.slashing_protection).toBeUndefined();
      const after = await row(mn);
      expect(after.delete_reason).toBe(reason);
      expect(after.state).toMatch(/deleting|deleted/);
    }
    const mn = await testNode('pivx');
    const other = await post('/api/delete_masternode', { mn, reason: 'Other' });
    expect(other).toEqual({
      status: 400,
      body: { success: false, message: 'Please tell us the reason in your own words.', error_input: 'reason' },
    });
    const long = await post('/api/delete_masternode', { mn, reason: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.success).toBe(false);
    expect(await post('/api/delete_masternode', { mn, reason: '' }).then((r) => r.status)).toBe(400);
    expect((await row(mn)).state).toBe('live');
    const words = 'y'.repeat(1000);
    expect((await post('/api/delete_masternode', { mn, reason: words })).status).toBe(200);
    expect((await row(mn)).delete_reason).toBe(words);
    // Gone for its owner: a second delete and a read answer "not found".
    expect((await post('/api/delete_masternode', { mn, reason: words })).status).toBe(404);
    expect((await call('GET', `/api/get_masternode?masternode=${mn}`, 'owner')).status).toBe(404);
  });

  it('destroys a running node through the fleet; it leaves the lists and the totals', async () => {
    const mn = await newNode('pivx');
    await waitFor(async () => (await detail(mn))?.state === 'live', 15_000, 'live');
    const before = (await call('GET', '/api/get_masternodes', 'owner')).body;
    expect(before.masternodes.map((n: { mn_id: string }) => n.mn_id)).toContain(mn);
    expect((await simAdmin('/nodes')).nodes).toContain(mn);
    expect((await post('/api/delete_masternode', { mn, reason: 'Moving to Cloud plan' })).status).toBe(200);
    const after = (await call('GET', '/api/get_masternodes', 'owner')).body;
    expect(after.masternodes.map((n: { mn_id: string }) => n.mn_id)).not.toContain(mn);
    expect(after.monthly_cost).toBeLessThan(before.monthly_cost);
    await waitFor(async () => (await row(mn)).state === 'deleted', 15_000, 'deleted by the engine');
    expect((await simAdmin('/nodes')).nodes).not.toContain(mn);
  });

  it('stops a validator first and answers its EIP-3076 slashing-protection file', async () => {
    const pubkey = 'ef'.repeat(48);
    const mn = await newNode('eth', {
      validator_pubkey: pubkey,
      fee_recipient: '0x' + 'b'.repeat(40),
      output_text: JSON.stringify({ pubkey, fee_recipient: '0x' + 'b'.repeat(40) }),
    });
    await waitFor(
      async () => (await simAdmin('/nodes')).nodes.includes(mn) && (await detail(mn))?.state === 'live',
      15_000,
      'validator live',
    );
    const head = await fetch(`http://127.0.0.1:${simPort()}/n/${mn}/eth/v1/node/syncing`).then((r) => r.json());
    const r = await post('/api/delete_masternode', { mn, reason: 'I will deploy another node' });
    expect(r.status).toBe(200);
    // Stopped before the answer: the simulator no longer serves it.
    expect((await simAdmin('/nodes')).nodes).not.toContain(mn);
    const file = JSON.parse(r.body.slashing_protection);
    expect(file.metadata).toEqual({
      interchange_format_version: '5',
      genesis_validators_root: '0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95',
    });
    expect(file.data).toHaveLength(1);
    expect(file.data[0].pubkey).toBe(`0x${pubkey}`);
    // Everything the node could have signed is at or below the recorded slot and epoch.
    const slot = Number(file.data[0].signed_blocks[0].slot);
    expect(slot).toBeGreaterThanOrEqual(Number(head.data.head_slot));
    const att = file.data[0].signed_attestations[0];
    expect(Number(att.target_epoch)).toBeGreaterThanOrEqual(Math.floor(Number(head.data.head_slot) / 32));
    expect(Number(att.source_epoch)).toBeLessThanOrEqual(Number(att.target_epoch));
  });

  it('still gives the file when the control loop removed the validator before the delete stopped it', async () => {
    const pubkey = 'a7'.repeat(48);
    const mn = await newNode('eth', {
      validator_pubkey: pubkey,
      fee_recipient: '0x' + 'c'.repeat(40),
      output_text: JSON.stringify({ pubkey, fee_recipient: '0x' + 'c'.repeat(40) }),
    });
    await waitFor(
      async () => (await simAdmin('/nodes')).nodes.includes(mn) && (await detail(mn))?.state === 'live',
      15_000,
      'validator live',
    );
    // The delete's view of the node (live), taken before the loop's pass removes it.
    const seen = (await findNode(s.deps.db, mn))!;
    expect(await requestDestroy(s.deps.db, seen, systemActor('test'), 'race')).toBe(true);
    await s.deps.fleet.reconcile();
    await waitFor(async () => !(await simAdmin('/nodes')).nodes.includes(mn), 15_000, 'removed by the loop');
    const text = await validatorExitFile({ fleet: s.deps.fleet, log: s.deps.log }, seen);
    const file = JSON.parse(text!);
    expect(file.data[0].pubkey).toBe(`0x${pubkey}`);
    // Unreadable head: the wall clock's slot on Ethereum's chain, plus the margin.
    const wallSlot = Math.floor((Date.now() / 1000 - 1_606_824_023) / 12);
    expect(Number(file.data[0].signed_blocks[0].slot)).toBeGreaterThanOrEqual(wallSlot);
  });
});

describe('starting a node from its page', () => {
  it('register_submit: strict parsing, then the daemon registers it and it goes from start required to running, live', async () => {
    const live = liveClient(s.url, users.owner.token);
    clients.push(live);
    const mn = await newNode('dash', {
      entry: 'aa'.repeat(32),
      output_text: `x 0.0.0.0:9999 ${'aa'.repeat(32)} 1 not_active`,
    });
    await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'start required');
    const d = await detail(mn);
    expect(d.setup.view).toBe('dip003');
    expect(d.setup.started).toBe(false);
    expect(d.setup.commands.map((c: { text: string }) => c.text).join('\n')).toContain(
      `protx register_prepare ${'aa'.repeat(32)} 1 `,
    );

    const sig = Buffer.alloc(65, 7).toString('base64');
    const bad: Array<[string, string]> = [
      ['{"tx": "zz"', 'The register_prepare output is not valid JSON: paste it exactly as the wallet printed it.'],
      ['{"collateralAddress": "X"} ' + sig, 'The register_prepare output has no "tx" field.'],
      ['{"tx": "nothex"} ' + sig, 'The transaction is not valid hex.'],
      [
        `{"tx": "${'03000100'.padEnd(200, '0')}"}`,
        'The signature is missing: paste the text signmessage printed after the register_prepare output.',
      ],
      [
        `${'03000100'.padEnd(200, '0')} short`,
        'The signature is not valid: it is the 88-character text signmessage printed.',
      ],
      ['a b c', 'Expected the register_prepare output and the signature, nothing else.'],
    ];
    for (const [output, message] of bad) {
      expect(await post('/api/register_submit', { mn, output }), output).toEqual({
        status: 400,
        body: { success: false, message, error_input: 'output' },
      });
    }
    // A well-formed transaction for another operator key: the daemon's own words.
    const refused = await post('/api/register_submit', {
      mn,
      output: `{"tx": "${'03000100'.padEnd(200, '0')}"} ${sig}`,
    });
    expect(refused).toEqual({
      status: 400,
      body: { success: false, message: 'The network refused the registration: transaction payload not deserializable' },
    });
    expect((await row(mn)).output_text).toContain('not_active');

    const { result } = await rpc(mn, 'bls', ['generate']);
    const tx = `03000100${'00'.repeat(40)}${result.public}${'00'.repeat(20)}`;
    const ok = await post('/api/register_submit', {
      mn,
      output: `{"tx": "${tx}", "collateralAddress": "Xabc", "signMessage": "m"}\n${sig}`,
    });
    expect(ok).toEqual({
      status: 200,
      body: {
        success: true,
        message:
          'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.',
      },
    });
    const r = await row(mn);
    expect(r.output_text).toBe(`x 0.0.0.0:9999 ${'aa'.repeat(32)} 1 active`);
    expect(r.started_at).not.toBeNull();
    await waitFor(
      async () => live.received.find((e) => e.type === 'started' && e.payload.mn_id === mn),
      15_000,
      'started',
    );
    expect((await detail(mn)).setup.started).toBe(true);
    await waitFor(async () => (await detail(mn))?.status === 'running', 30_000, 'running');
    // Once started, a second submit is refused and changes nothing.
    expect((await post('/api/register_submit', { mn, output: `${tx} ${sig}` })).body.message).toBe(
      'This node has already been started.',
    );

    // The monitor now reads its collateral address and PoSe penalty.
    await simAdmin(`/nodes/${mn}/pose`, { penalty: 25 });
    const watched = await waitFor(
      async () => {
        const n = await detail(mn);
        return n.setup.pose_penalty === 25 && n.activity && n;
      },
      15_000,
      'activity and PoSe',
    );
    expect(watched.activity.balance).toBeGreaterThanOrEqual(1000);
    expect(watched.activity.address).toMatch(/^X/);
    expect(watched.activity.transactions[0]).toMatchObject({
      txid: expect.stringMatching(/^[0-9a-f]{64}$/),
      human_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
  }, 90_000);

  it('a deployed DIP003 node runs with the operator key the deploy made: the page shows its secret, a registration naming it starts the node', async () => {
    const deployed = await post('/api/deploy_server', {
      currency: 'dash',
      txid: 'ab'.repeat(32),
      package: 'dedicated',
    });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    const mn = String(deployed.body.server_id);
    await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'start required');
    const fields: Array<{ label: string; value: string; secret: boolean }> = (await detail(mn)).setup.fields;
    const operatorPub = fields.find((f) => f.label === 'Operator public key')!.value;
    const secret = fields.find((f) => f.label === 'BLS secret');
    // The secret the deploy sealed is shown (behind the eye), and it is the key the page names.
    expect(secret).toMatchObject({ secret: true, value: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(
      Buffer.from(bls12_381.longSignatures.getPublicKey(Buffer.from(secret!.value, 'hex')).toBytes(true)).toString(
        'hex',
      ),
    ).toBe(operatorPub);
    // The simulated daemon runs with that key: the owner's registration names it and is taken.
    const tx = `03000100${'11'.repeat(40)}${operatorPub}${'22'.repeat(32)}`;
    const ok = await post('/api/register_submit', { mn, output: `${tx} ${Buffer.alloc(65, 9).toString('base64')}` });
    expect(ok).toEqual({
      status: 200,
      body: {
        success: true,
        message:
          'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.',
      },
    });
    await waitFor(async () => (await detail(mn))?.status === 'running', 30_000, 'running');
  }, 60_000);

  it('register_submit on a node that is not running yet answers so', async () => {
    const mn = await testNode('dash', { output_text: 'x not_active', state: 'provisioning' });
    const sig = Buffer.alloc(65, 7).toString('base64');
    const r = await post('/api/register_submit', { mn, output: `${'03000100'.padEnd(200, '0')} ${sig}` });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/not running yet/);
  });

  it('quick_setup: the wallet file or the key alone; a wrong key is refused; success starts the node live', async () => {
    const live = liveClient(s.url, users.owner.token);
    clients.push(live);
    const mn = await newNode('rtm', { entry: 'bb'.repeat(32), output_text: `x ${'bb'.repeat(32)} 0 not_active` });
    await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'start required');
    expect((await detail(mn)).setup.view).toBe('quick_setup');
    for (const [secret, message] of [
      ['smartnodeblsprivkey=xyz', 'The BLS secret key must be 64 hexadecimal characters.'],
      [
        'rpcuser=a\nrpcpassword=b',
        'No smartnodeblsprivkey line found: paste the file protx quick_setup wrote, or the key alone.',
      ],
      ['f'.repeat(64), 'Incorrect BLS key'],
    ]) {
      expect(await post('/api/quick_setup', { mn, secret }), secret).toEqual({
        status: 400,
        body: { success: false, message, error_input: 'secret' },
      });
    }
    const key = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
    const ok = await post('/api/quick_setup', {
      mn,
      secret: `server=1\nsmartnodeblsprivkey=${key}\nexternalip=1.2.3.4`,
    });
    expect(ok.status).toBe(200);
    // The key is applied by a queued job: the start completes when its daemon took it.
    await waitFor(async () => (await row(mn)).started_at !== null, 30_000, 'started by the quick setup job');
    expect((await row(mn)).output_text).toBe(`x ${'bb'.repeat(32)} 0 active`);
    await waitFor(
      async () => live.received.find((e) => e.type === 'started' && e.payload.mn_id === mn),
      15_000,
      'started',
    );
    await waitFor(async () => (await detail(mn))?.status === 'running', 30_000, 'running');
    const pivx = await testNode('pivx');
    expect((await post('/api/quick_setup', { mn: pivx, secret: key })).body.message).toBe(
      'This node is not started with quick setup.',
    );
  }, 90_000);
});

describe('the same start sent many times at once', () => {
  it('starts the node once: one success, one started event', async () => {
    const mn = await newNode('rtm', { output_text: 'x not_active' });
    await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'start required');
    const key = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/quick_setup', { mn, secret: key })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // The others: started (400), or another submit asking the daemon right now (409).
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a.body.message).toBe(a.status === 409 ? START_UNDER_WAY : 'This node has already been started.');
    await waitFor(async () => (await detail(mn))?.setup.started, 30_000, 'started by the quick setup job');
    const started = await s.deps.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', users.owner.id)
      .where('type', '=', 'started')
      .execute();
    expect(started.filter((e) => String(e.payload).includes(mn))).toHaveLength(1);
  }, 60_000);

  it('a start claim left by a process that died is taken again once it expires; a live one is not', async () => {
    const mn = await newNode('rtm', { output_text: 'x not_active' });
    await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'start required');
    const key = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
    const claim = (at: number) =>
      s.deps.db.updateTable('nodes').set({ start_claim_at: at }).where('mn_id', '=', mn).execute();
    await claim(Date.now() - 60_000);
    expect(await post('/api/quick_setup', { mn, secret: key })).toEqual({
      status: 409,
      body: { success: false, message: START_UNDER_WAY },
    });
    expect((await detail(mn)).setup.started).toBe(false);
    await claim(Date.now() - START_CLAIM_MS - 1000);
    expect(await post('/api/quick_setup', { mn, secret: key })).toMatchObject({ status: 200, body: { success: true } });
    await waitFor(async () => (await detail(mn))?.setup.started, 30_000, 'started by the quick setup job');
    const row = await s.deps.db
      .selectFrom('nodes')
      .select(['started_at', 'start_claim_at', 'output_text'])
      .where('mn_id', '=', mn)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ started_at: expect.any(Number), start_claim_at: null, output_text: 'x active' });
  }, 60_000);
});

describe('proposals', () => {
  it("reads governance proposals from a Dash node's daemon; other families answer an empty list", async () => {
    const mn = await newNode('dash');
    const list = await waitFor(
      async () => {
        const r = await call('GET', `/api/get_proposals?masternode=${mn}`, 'owner');
        return r.status === 200 && r.body;
      },
      15_000,
      'proposals',
    );
    expect(list.success).toBe(true);
    expect(list.data).toHaveLength(3);
    // The simulator's votes move with its chain: the shape and the proposal, not the counts.
    const count = expect.any(Number);
    expect(list.data[0]).toEqual({
      name: 'dash-exchange-listing',
      budget: 300,
      start_block: expect.any(Number),
      end_block: expect.any(Number),
      yes: count,
      no: count,
      abstain: count,
      status: expect.stringMatching(/^(passing|not passing)$/),
    });
    expect(list.data[0].end_block).toBeGreaterThan(list.data[0].start_block);
    expect(list.data.map((p: { status: string }) => p.status)).toContain('expired');
    const pivx = await testNode('pivx');
    expect(await call('GET', `/api/get_proposals?masternode=${pivx}`, 'owner')).toEqual({
      status: 200,
      body: { success: true, data: [] },
    });
  });

  it("gives a monero-type node, once synced, the register_{word}_node command its owner runs; the view's start command is it minus its last word", async () => {
    const address = `bxRegisterTest${seq++}`;
    const mn = await newNode('bdx', { entry: address, output_text: `mn1 ${address}` });
    const n = await waitFor(
      async () => {
        const d = await detail(mn);
        return d?.output_text.startsWith('register_') && d;
      },
      20_000,
      'the register command',
    );
    // Beldex calls them master nodes; the owner stakes the whole requirement to their own address.
    expect(n.output_text).toMatch(
      new RegExp(`^register_master_node 100 ${address} 10000 \\d+ [0-9a-f]{64} [0-9a-f]+ not_active$`),
    );
    expect(n.setup.view).toBe('monero');
    expect(n.start_cmd).toBe(n.output_text.split(' ').slice(0, -1).join(' '));
  });

  it("reads a classic node's collateral activity (masternode status address, then the address index)", async () => {
    const mn = await newNode('pivx');
    const n = await waitFor(async () => (await detail(mn))?.activity, 15_000, 'activity');
    // The collateral (PIVX: 10,000) sits on the address; a node not yet paid has sent nothing.
    expect(n).toMatchObject({
      address: expect.stringMatching(/^S[1-9A-HJ-NP-Za-km-z]{33}$/),
      balance: 10_000,
      sent: 0,
    });
    expect(n.transactions.map((t: { amount: number }) => t.amount)).toContain(10_000);
  });
});
