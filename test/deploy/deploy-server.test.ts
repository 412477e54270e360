import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressNotValid, fieldNotTaken } from '../../src/shared/deploy-rules';
import { DEPLOY_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { BURN_REQUIRED, sameDeploy, VALIDATORS_UPLOAD, ZEN_ADDRESS_USED } from '../../src/server/deploy/service';
import { secretsAad } from '../../src/server/nodes/node-secrets';
import { parseOutputText } from '../../src/server/nodes/output-text';
import { blsPublicKeyHex } from '../../src/server/nodes/bls';
import { fundedUser } from '../support/users';
import { loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { clients, counts, databaseBytes } from './support';
import { freshAddress, MAINNET } from '../support/addresses';
import { addressChecksum, notCoinAddress, OUTPOINT_INVALID, TXID_INVALID } from '../../src/shared/address-check';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// The JSON deploy over real HTTP, with the simulator on: every rule answers the same over
// REST and tRPC and writes nothing; a deploy of each family reaches server_created.

let s: TestServer;
const { rest, trpc } = clients(() => s);
let token = '';

beforeAll(async () => {
  s = await startTestServer({ MONITOR_NODE_SECONDS: '0.5' });
  token = (await fundedUser(s.deps)).token;
  // BITG is under maintenance in the catalog; its payee rules are tested with it open.
  await s.deps.db.updateTable('coins').set({ maintenance: 0 }).where('id', '=', 'bitg').execute();
});
afterAll(() => stopTestServer(s));

const tx = (c: string) => c.repeat(64).slice(0, 64);
const uniq = () => crypto.randomUUID().replace(/-/g, '');

/** One input through both transports: the same message and field, nothing written. */
async function refusedAlike(input: Record<string, unknown>, message: string, field: string | undefined, status = 400, who = token) {
  // A deploy accepted just before is placed by the fleet after its answer: "nothing written"
  // is counted from once each node has its placement (a loaded run counted one landing between).
  const before = await waitFor(
    async () => {
      const c = await counts(s);
      return c.placements === c.nodes && c;
    },
    scaled(20_000),
    'every node deployed so far placed',
  );
  const r = await rest('POST', '/api/deploy_server', who, input);
  const t = await trpc('deploy.deploy_server', who, input);
  expect({ status: r.status, body: r.body }, JSON.stringify(input)).toEqual({ status, body: { success: false, message, ...(field ? { error_input: field } : {}) } });
  expect({ status: t.status, message: t.message, field: t.field }).toEqual({ status, message, field });
  expect(await counts(s)).toEqual(before);
}

describe('deploy_server: section 5 rules, the same over REST and tRPC, nothing written', () => {
  it('entry required per family, with migrate not required', async () => {
    await refusedAlike({ currency: 'pivx', txid: '' }, 'Transaction ID required.', 'txid');
    await refusedAlike({ currency: 'dash', txid: '   ' }, 'Transaction ID required.', 'txid');
    await refusedAlike({ currency: 'zen42', txid: '' }, 'Address required.', 'txid');
    await refusedAlike({ currency: 'nrg' }, 'Address required.', 'txid');
    await refusedAlike({ currency: 'bdx', txid: '' }, 'Address required.', 'txid');
    await refusedAlike({ currency: 'playa3ull', txid: '' }, 'License key required.', 'txid');
  });

  it('address prefixes (BDX b, OXEN L) and the BITG payee', async () => {
    await refusedAlike({ currency: 'bdx', txid: 'x123' }, addressNotValid('Beldex', 'b'), 'txid');
    await refusedAlike({ currency: 'oxen', txid: 'b123' }, addressNotValid('Oxen → Session Token', 'L'), 'txid');
    await refusedAlike({ currency: 'bitg', txid: tx('a') }, 'Payee address required.', 'payee');
    await refusedAlike({ currency: 'bitg', txid: tx('a'), payee: 'GfooBar' }, 'Correct payee address required.', 'payee');
    // Starts with 3, but its checksum is wrong (one character changed).
    const p2sh = freshAddress('bitg', 'P2SH');
    const typo = p2sh.slice(0, 10) + (p2sh[10] === 'a' ? 'b' : 'a') + p2sh.slice(11);
    await refusedAlike({ currency: 'bitg', txid: tx('a'), payee: typo }, addressChecksum('Bitcoin Green (BitGreen)'), 'payee');
  });

  it("nonsense in an address or transaction field is refused with the coin's own rule, and nothing is written", async () => {
    await refusedAlike({ currency: 'dash', txid: 'not-a-txid' }, OUTPOINT_INVALID, 'txid');
    await refusedAlike({ currency: 'pivx', txid: 'abc' }, OUTPOINT_INVALID, 'txid');
    await refusedAlike({ currency: 'defi', txid: `${tx('a')}-1` }, TXID_INVALID, 'txid');
    await refusedAlike({ currency: 'zen42', txid: 'hello' }, notCoinAddress('Horizen', ['zn', 't1', 'zs', 'zt', 't3']), 'txid');
    await refusedAlike({ currency: 'satori', rewardAddress: 'abc', neuronCount: 1 }, 'This is not an Evrmore address: it should start with E or e.', 'rewardAddress');
    await refusedAlike({ currency: 'firo', txid: tx('a'), payee: 'notanaddress' }, 'This is not a Firo address: it should start with Z, a, 3 or 4.', 'payee');
    // A real address of another coin is not this coin's.
    await refusedAlike({ currency: 'dash', txid: tx('a'), payee: MAINNET.firo }, notCoinAddress('Dash', ['X', '7']), 'payee');
    await refusedAlike({ currency: 'nrg', txid: 'hello' }, 'This is not an Energi address: it is 0x followed by 40 characters, the digits 0-9 and the letters a-f.', 'txid');
  });

  it('a migrated dip003 node needs a real BLS12-381 secret key', async () => {
    await refusedAlike({ currency: 'dash', txid: '', migrate: true, blsKey: 'not a key' }, 'Incorrect BLS key', 'blsKey');
    // 64 hex characters, but above the curve order: only the server can tell.
    await refusedAlike({ currency: 'dash', txid: tx('b'), migrate: true, blsKey: 'f'.repeat(64) }, 'Incorrect BLS key', 'blsKey');
    await refusedAlike({ currency: 'dash', txid: tx('b'), migrate: true, blsKey: '0'.repeat(64) }, 'Incorrect BLS key', 'blsKey');
  });

  it('validators must upload keystores; Satori needs its reward address; SIN its burn', async () => {
    await refusedAlike({ currency: 'eth', txid: tx('c') }, VALIDATORS_UPLOAD, 'keystores');
    await refusedAlike({ currency: 'satori', neuronCount: 3 }, 'Address required.', 'rewardAddress');
    await refusedAlike({ currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 51 }, 'neuronCount: must be 1 to 50', undefined);
    await refusedAlike({ currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 0 }, 'neuronCount: must be 1 to 50', undefined);
    await refusedAlike({ currency: 'sin', txid: tx('d') }, BURN_REQUIRED, 'burntxid');
    await refusedAlike({ currency: 'sin', txid: tx('d'), burntxid: 'not-a-txid', burn_output_id: 0 }, TXID_INVALID, 'burntxid');
  });

  it("a field the coin's family does not send is refused and named (families.ts payload)", async () => {
    await refusedAlike({ currency: 'zen42', txid: 'znAddress', blsKey: 'f'.repeat(64) }, fieldNotTaken('Horizen Secure Node', 'blsKey'), 'blsKey');
    await refusedAlike({ currency: 'pivx', txid: tx('f'), migrate: true }, fieldNotTaken('PIVX', 'migrate'), 'migrate');
    await refusedAlike({ currency: 'dash', txid: tx('f'), monero_secret: 'secret' }, fieldNotTaken('Dash', 'monero_secret'), 'monero_secret');
    await refusedAlike({ currency: 'bdx', txid: 'bAddress', burntxid: tx('a'), burn_output_id: 0 }, fieldNotTaken('Beldex', 'burntxid'), 'burntxid');
    await refusedAlike({ currency: 'satori', rewardAddress: 'Sx', neuronCount: 2, payee: 'Sy' }, fieldNotTaken('Satori Network', 'payee'), 'payee');
    await refusedAlike({ currency: 'defi', txid: tx('f'), rewardAddress: 'x' }, fieldNotTaken('DeFiChain', 'rewardAddress'), 'rewardAddress');
    // An empty or unticked field carries nothing: a script's fixed template still deploys.
    const ok = await rest('POST', '/api/deploy_server', token, { currency: 'pivx', txid: `${uniq()}${uniq()}`, payee: '', migrate: false, blsKey: '  ' });
    expect(ok.body).toMatchObject({ success: true });
  });

  it('unknown coins and fields, a delisted coin', async () => {
    await refusedAlike({ currency: 'nope', txid: tx('e') }, 'Unknown coin "nope".', undefined, 404);
    await refusedAlike({ currency: 'pivx', txid: tx('e'), foo: 1 }, 'unknown field: foo', undefined);
    await refusedAlike({ currency: 'pac', txid: tx('e') }, 'PACGlobal is delisted: new nodes cannot be deployed.', undefined);
  });

  it('a ZEN t_address never serves two nodes, on any account and either ZEN coin', async () => {
    const address = freshAddress('zen42');
    const first = await rest('POST', '/api/deploy_server', token, { currency: 'zen42', txid: address });
    expect(first.body).toMatchObject({ success: true });
    const other = (await fundedUser(s.deps)).token;
    await refusedAlike({ currency: 'zen500', txid: address }, ZEN_ADDRESS_USED, 'txid', 400, other);
    await refusedAlike({ currency: 'zen42', txid: address }, ZEN_ADDRESS_USED, 'txid', 400, other);
  });

  it('the same deploy sent again is refused, not run twice', async () => {
    const txid = `${uniq()}${uniq()}`;
    const ok = await rest('POST', '/api/deploy_server', token, { currency: 'pivx', txid });
    expect(ok.body).toMatchObject({ success: true });
    await refusedAlike({ currency: 'pivx', txid }, sameDeploy('transaction ID'), 'txid', 409);
  });
});

describe('check_burn over REST', () => {
  it('answers a malformed burn transaction ID under its field, and refuses coins without a burn', async () => {
    expect(await rest('POST', '/api/check_burn', token, { currency: 'sin', txid: 'xyz' })).toEqual({ status: 400, body: { success: false, message: TXID_INVALID, error_input: 'burntxid' } });
    expect(await rest('POST', '/api/check_burn', token, { currency: 'sin', txid: '' })).toEqual({ status: 400, body: { success: false, message: BURN_REQUIRED, error_input: 'burntxid' } });
    expect((await rest('POST', '/api/check_burn', token, { currency: 'pivx', txid: tx('a') })).body).toEqual({ success: false, message: 'PIVX nodes need no burn transaction.', error_input: 'burntxid' });
    expect((await rest('POST', '/api/check_burn', '', { currency: 'sin', txid: tx('a') })).status).toBe(401);
  });
});

describe('a deploy of each family reaches server_created', () => {
  const BITG_PAYEE = freshAddress('bitg', 'P2SH');
  const families: Array<[string, Record<string, unknown>, (text: string) => void]> = [
    ['dash', { txid: `${uniq()}${uniq()}`, payee: MAINNET.dash }, (t) => expect(t.split(' ')[7]).toBe('not_active')],
    ['bitg', { txid: `${uniq()}${uniq()}`, payee: BITG_PAYEE }, (t) => expect(t.split(' ')[5]).toBe(BITG_PAYEE)],
    ['rtm', { txid: `${uniq()}${uniq()}-1` }, (t) => expect(t.split(' ')[4]).toBe('1')],
    ['pivx', { txid: `${uniq()}${uniq()}` }, (t) => expect(t.split(' ')).toHaveLength(5)],
    ['zen42', { txid: freshAddress('zen42') }, (t) => expect(t).toMatch(/^mn1 zn/)],
    ['nrg', { txid: freshAddress('nrg') }, (t) => expect(t).toMatch(/^mn1 0x/)],
    ['bdx', { txid: `b${uniq()}`, monero_secret: '' }, (t) => expect(t).toMatch(/^mn1 b/)],
    ['playa3ull', { txid: `LIC-${uniq()}` }, (t) => expect(t).toMatch(/^mn1 LIC-/)],
    ['defi', { txid: `${uniq()}${uniq()}` }, (t) => expect(t).toMatch(/^8[1-9A-HJ-NP-Za-km-z]{33} /)],
  ];
  it.each(families)('%s', async (coin, extra, layout) => {
    const r = await rest('POST', '/api/deploy_server', token, { currency: coin, package: 'dedicated', ...extra });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, server_id: expect.stringMatching(new RegExp(`^${coin}-`)), server_ids: [r.body.server_id] });
    const id = r.body.server_id as string;
    // The queue shows it at once.
    const queue = await rest('GET', '/api/get_building_servers', token);
    expect(queue.body.data.map((q: any) => q.mn_id)).toContain(id);
    await waitFor(
      async () => (await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'server_created').execute()).some((e) => JSON.parse(e.payload).server_id === id),
      scaled(20_000),
      `server_created for ${coin}`,
    );
    const node = await s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();
    expect(node.state).toBe('live');
    layout(node.output_text!);
    expect(parseOutputText((await s.deps.db.selectFrom('coins').select('family').where('id', '=', coin).executeTakeFirstOrThrow()).family, node.output_text)).not.toBeNull();
    const list = await rest('GET', '/api/get_masternodes', token);
    expect([...list.body.masternodes, ...list.body.queue].map((m: any) => m.mn_id)).toContain(id);
  });

  it('dip003 keeps the operator secret sealed and shows its public key; a migration keeps the customer key', async () => {
    const blsKey = '3a0b0b8c7b4a4f1f5d7a1f0d1b3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f';
    const r = await rest('POST', '/api/deploy_server', token, { currency: 'dash', txid: '', migrate: true, blsKey });
    expect(r.body).toMatchObject({ success: true });
    const node = await s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', r.body.server_id).executeTakeFirstOrThrow();
    const parsed = parseOutputText('dip003', node.output_text);
    expect(parsed).toMatchObject({ kind: 'dip003', marker: 'migrated', txid: null });
    expect(JSON.parse(s.deps.secrets.open(node.secrets!, secretsAad(node.mn_id)))).toEqual({ operator_bls_secret: blsKey });
    // A sealed value does not open as another node's.
    expect(() => s.deps.secrets.open(node.secrets!, secretsAad('dash-other'))).toThrow();

    const monero = `b${uniq()}`;
    const secret = `5ec7e7${uniq()}${uniq()}`.slice(0, 64);
    const m = await rest('POST', '/api/deploy_server', token, { currency: 'bdx', txid: monero, monero_secret: secret });
    const mNode = await s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', m.body.server_id).executeTakeFirstOrThrow();
    expect(JSON.parse(s.deps.secrets.open(mNode.secrets!, secretsAad(mNode.mn_id)))).toEqual({ monero_secret: secret });
    const noSecret = await rest('POST', '/api/deploy_server', token, { currency: 'bdx', txid: `b${uniq()}`, monero_secret: '  ' });
    expect((await s.deps.db.selectFrom('nodes').select('secrets').where('mn_id', '=', noSecret.body.server_id).executeTakeFirstOrThrow()).secrets).toBeNull();

    // An operator key the platform made: sealed, its public key in the output text.
    const made = await rest('POST', '/api/deploy_server', token, { currency: 'dash', txid: `${uniq()}${uniq()}` });
    const madeNode = await s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', made.body.server_id).executeTakeFirstOrThrow();
    const operator = JSON.parse(s.deps.secrets.open(madeNode.secrets!, secretsAad(madeNode.mn_id))).operator_bls_secret as string;
    expect(operator).toMatch(/^[0-9a-f]{64}$/);
    expect(parseOutputText('dip003', madeNode.output_text)).toMatchObject({ marker: 'not_active', operatorPubkey: blsPublicKeyHex(Buffer.from(operator, 'hex')) });
    // Its owner (only) sees it on the node page, blurred until the eye is toggled.
    const page = await rest('GET', `/api/get_masternode?masternode=${made.body.server_id}`, token);
    expect(page.body.data.setup.fields).toContainEqual({ label: 'BLS secret', value: operator, secret: true, href: null });

    // No secret is anywhere in the database file or the logs in plaintext.
    const bytes = await databaseBytes(s);
    const logs = s.logLines.join('\n');
    for (const plain of [blsKey, secret, operator]) {
      expect(bytes.includes(plain)).toBe(false);
      expect(logs.includes(plain)).toBe(false);
    }
  });

  it('Satori: 25 neurons in one deploy, one queue item and one server_created each', async () => {
    const r = await rest('POST', '/api/deploy_server', token, { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 25 });
    expect(r.body.success).toBe(true);
    expect(r.body.server_ids).toHaveLength(25);
    expect(new Set(r.body.server_ids).size).toBe(25);
    const rows = await s.deps.db.selectFrom('nodes').select(['deploy_id', 'state']).where('mn_id', 'in', r.body.server_ids).execute();
    expect(new Set(rows.map((n) => n.deploy_id)).size).toBe(1);
    const created = await waitFor(
      async () => {
        const ids = (await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'server_created').execute()).map((e) => JSON.parse(e.payload).server_id);
        return r.body.server_ids.every((id: string) => ids.includes(id)) && ids;
      },
      scaled(30_000),
      'server_created for 25 neurons',
    );
    expect(created.length).toBeGreaterThanOrEqual(25);
  });
});

describe('one deploy at a time per user', () => {
  it('100 identical deploys at once from 100 addresses: exactly one runs, the others are refused clearly', async () => {
    const { token: t, id: userId } = await fundedUser(s.deps);
    const body = { currency: 'pivx', txid: `${uniq()}${uniq()}` };
    const before = await counts(s);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => requestFrom(loopback(i, 5000), `${s.url}/api/deploy_server`, { body, token: t })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].body).toMatchObject({ success: true });
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(99);
    for (const a of refused) {
      expect(a.status).toBe(409);
      expect([DEPLOY_IN_FLIGHT, sameDeploy('transaction ID')]).toContain(a.body.message);
    }
    const after = await counts(s);
    expect(after.nodes - before.nodes).toBe(1);
    const mine = await s.deps.db.selectFrom('nodes').select('mn_id').where('user_id', '=', userId).execute();
    expect(mine.map((n) => n.mn_id)).toEqual([ok[0].body.server_id]);
  });
});

describe('bad JSON bodies write nothing', () => {
  it('malformed JSON, wrong content type, wrong types', async () => {
    const before = await counts(s);
    const raw = (body: string, type = 'application/json') =>
      fetch(`${s.url}/api/deploy_server`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await raw('{"currency":')).toEqual({ status: 400, body: { success: false, message: 'Malformed JSON body.' } });
    expect((await raw('currency=pivx', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await raw(JSON.stringify({ currency: 'pivx', txid: 5 }))).status).toBe(400);
    expect((await raw(JSON.stringify({ currency: 'pivx', txid: 'x', package: 'gold' }))).status).toBe(400);
    expect((await raw(JSON.stringify({ currency: 'pivx', txid: 'x'.repeat(70_000) }))).status).toBe(413);
    expect(await counts(s)).toEqual(before);
  });
});
