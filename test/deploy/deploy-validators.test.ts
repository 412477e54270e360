import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNotTaken } from '../../src/shared/deploy-rules';
import { EIP55_MISMATCH } from '../../src/shared/evm-address';
import { secretsAad } from '../../src/server/nodes/node-secrets';
import { DEPLOYED, KEY_IN_USE, NONE_DEPLOYED, NOT_VALIDATORS } from '../../src/server/deploy/validators';
import { WRONG_PASSWORD } from '../../src/server/nodes/keystore';
import { parseOutputText } from '../../src/server/nodes/output-text';
import { fundedUser } from '../support/users';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { clients, counts, databaseBytes, FEE, makeKeystore, smallPbkdf2, smallScrypt, validatorForm } from './support';

// Validators: keystore uploads over the multipart REST route and tRPC (the browser's JSON),
// with keystores made by an independent implementation (@chainsafe/bls-keystore).

let s: TestServer;
const { trpc, multipart, rest } = clients(() => s);
let token = '';
const PASSWORD = 'keystore pass 1';

beforeAll(async () => {
  s = await startTestServer({ MONITOR_NODE_SECONDS: '0.5' });
  token = (await fundedUser(s.deps)).token;
});
afterAll(() => stopTestServer(s));

describe('validator uploads', () => {
  it('multipart: good keystores of both KDFs deploy, a wrong password and a broken file are reported per file', async () => {
    const [a, b, wrong] = await Promise.all([makeKeystore(PASSWORD, smallScrypt()), makeKeystore(PASSWORD, smallPbkdf2()), makeKeystore('another password', smallPbkdf2())]);
    const broken = JSON.stringify({ version: 4, pubkey: 'abc', crypto: {} });
    const before = await counts(s);
    const r = await multipart(token, validatorForm({ files: [['a.json', a.text], ['b.json', b.text], ['wrong.json', wrong.text], ['broken.json', broken]] }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: '2 validators deployed.' });
    expect(r.body.server_ids).toHaveLength(2);
    expect(r.body.server_id).toBe(r.body.server_ids[0]);
    expect(Object.keys(r.body.data)).toEqual(['a.json', 'b.json', 'wrong.json', 'broken.json']);
    expect(r.body.data['a.json']).toEqual({ success: true, message: DEPLOYED });
    expect(r.body.data['b.json']).toEqual({ success: true, message: DEPLOYED });
    expect(r.body.data['wrong.json']).toEqual({ success: false, message: WRONG_PASSWORD });
    expect(r.body.data['broken.json'].success).toBe(false);
    expect(r.body.data['broken.json'].message).toMatch(/^Not an EIP-2335 keystore: /);
    expect((await counts(s)).nodes - before.nodes).toBe(2);

    const nodes = await s.deps.db.selectFrom('nodes').selectAll().where('mn_id', 'in', r.body.server_ids).orderBy('id').execute();
    expect(nodes.map((n) => n.validator_pubkey)).toEqual([a.pubkey, b.pubkey]);
    expect(parseOutputText('evm', nodes[0].output_text)).toEqual({ kind: 'validator', pubkey: a.pubkey, fee_recipient: FEE });
    expect(nodes.every((n) => n.fee_recipient === FEE && n.deploy_id === nodes[0].deploy_id)).toBe(true);
    // Keystore and password sealed per node, bound to it.
    // With the Bearer token its validator client's Keymanager API will take.
    const sealed = JSON.parse(s.deps.secrets.open(nodes[0].secrets!, secretsAad(nodes[0].mn_id)));
    expect(sealed).toEqual({ keystore: a.text, keystore_password: PASSWORD, keymanager_token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(() => s.deps.secrets.open(nodes[0].secrets!, secretsAad(nodes[1].mn_id))).toThrow();
    const bytes = await databaseBytes(s);
    const logs = s.logLines.join('\n');
    for (const plain of [PASSWORD, JSON.parse(a.text).crypto.cipher.message, a.secret, b.secret]) {
      expect(bytes.includes(plain)).toBe(false);
      expect(logs.includes(plain)).toBe(false);
    }
    await waitFor(
      async () => {
        const ids = (await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'server_created').execute()).map((e) => JSON.parse(e.payload).server_id);
        return r.body.server_ids.every((id: string) => ids.includes(id));
      },
      20_000,
      'server_created for the validators',
    );
    // Run, not only watched: the (simulated) validator client holds the key, with the fee recipient of the deploy.
    const simPort = fs.readFileSync(path.join(s.dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
    const km = (p: string) => fetch(`http://127.0.0.1:${simPort}/n/${nodes[0].mn_id}${p}`, { headers: { authorization: `Bearer ${sealed.keymanager_token}` } }).then((res) => res.json());
    expect(await km('/eth/v1/keystores')).toEqual({ data: [{ validating_pubkey: a.pubkey, derivation_path: '', readonly: false }] });
    expect(await km(`/eth/v1/validator/${a.pubkey}/feerecipient`)).toEqual({ data: { pubkey: a.pubkey, ethaddress: FEE } });
    const logs2 = s.logLines.join('\n');
    expect(logs2.includes(sealed.keymanager_token)).toBe(false);
  });

  it('tRPC (the browser): a keystore with the standard scrypt parameters deploys; a key already deployed by another user does not', async () => {
    const std = await makeKeystore(PASSWORD);
    const ok = await trpc('deploy.deploy_validators', token, { currency: 'eth', password: PASSWORD, fee_recipient: FEE, keystores: [{ name: 'std.json', text: std.text }] });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ success: true, data: { 'std.json': { success: true, message: DEPLOYED } } });

    const other = (await fundedUser(s.deps)).token;
    const before = await counts(s);
    const again = await multipart(other, validatorForm({ files: [['mine-now.json', std.text]], password: PASSWORD }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: false, message: NONE_DEPLOYED, server_id: null, server_ids: [], data: { 'mine-now.json': { success: false, message: KEY_IN_USE } } });
    const viaTrpc = await trpc('deploy.deploy_validators', other, { currency: 'eth', password: PASSWORD, fee_recipient: FEE, keystores: [{ name: 'mine-now.json', text: std.text }] });
    expect(viaTrpc.data).toEqual(again.body);
    expect(await counts(s)).toEqual(before);
  });

  it('an upload past the general 64 KiB body limit deploys (the multipart reader has its own cap)', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => makeKeystore(PASSWORD, smallPbkdf2())));
    // EIP-2335 keeps a free-text description: 10 KiB each makes the body over 80 KiB.
    const files = keys.map((k, i) => [`big-${i}.json`, JSON.stringify({ ...JSON.parse(k.text), description: 'd'.repeat(10 * 1024) })] as [string, string]);
    expect(files.reduce((n, [, t]) => n + t.length, 0)).toBeGreaterThan(80 * 1024);
    const r = await multipart(token, validatorForm({ files }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: '8 validators deployed.' });
    expect(Object.values(r.body.data).every((f: any) => f.success)).toBe(true);
  });

  it('form errors: the same message and field over multipart and tRPC, nothing written', async () => {
    const ks = await makeKeystore(PASSWORD, smallPbkdf2());
    const cases: Array<{ form: Parameters<typeof validatorForm>[0]; json: Record<string, unknown>; message: string; field?: string }> = [
      { form: { files: [['k.json', ks.text]], fee: '' }, json: { fee_recipient: '' }, message: 'Address required', field: 'fee_recipient' },
      { form: { files: [['k.json', ks.text]], fee: '0x12' }, json: { fee_recipient: '0x12' }, message: 'Invalid address', field: 'fee_recipient' },
      // One letter's case changed: the EIP-55 checksum fails.
      { form: { files: [['k.json', ks.text]], fee: FEE.replace('aA', 'AA') }, json: { fee_recipient: FEE.replace('aA', 'AA') }, message: EIP55_MISMATCH, field: 'fee_recipient' },
      { form: { files: [['k.json', ks.text]], password: '' }, json: { password: '' }, message: 'Password required', field: 'password' },
      { form: { files: [] }, json: { keystores: [] }, message: 'Please select at least one file', field: 'keystores' },
      {
        form: { files: Array.from({ length: 11 }, (_, i) => [`k${i}.json`, ks.text] as [string, string]) },
        json: { keystores: Array.from({ length: 11 }, (_, i) => ({ name: `k${i}.json`, text: ks.text })) },
        message: 'You can upload up to 10 files',
        field: 'keystores',
      },
      { form: { files: [['k.json', 'not json']] }, json: { keystores: [{ name: 'k.json', text: 'not json' }] }, message: 'k.json: not a JSON file', field: 'keystores' },
      { form: { files: [['k.json', ks.text]], currency: 'pivx' }, json: { currency: 'pivx' }, message: NOT_VALIDATORS('PIVX'), field: 'keystores' },
    ];
    const before = await counts(s);
    for (const c of cases) {
      const r = await multipart(token, validatorForm(c.form));
      expect(r.status, c.message).toBe(400);
      expect(r.body).toEqual({ success: false, message: c.message, ...(c.field ? { error_input: c.field } : {}) });
      const t = await trpc('deploy.deploy_validators', token, { currency: 'eth', password: PASSWORD, fee_recipient: FEE, keystores: [{ name: 'k.json', text: ks.text }], ...c.json });
      expect({ status: t.status, message: t.message, field: t.field }).toEqual({ status: 400, message: c.message, field: c.field });
    }
    expect(await counts(s)).toEqual(before);
  });

  it('bad multipart bodies are refused with a clear message and nothing written', async () => {
    const ks = await makeKeystore(PASSWORD, smallPbkdf2());
    const before = await counts(s);
    const eleven = await multipart(token, validatorForm({ files: Array.from({ length: 11 }, (_, i) => [`k${i}.json`, ks.text] as [string, string]) }));
    expect(eleven).toEqual({ status: 400, body: { success: false, message: 'You can upload up to 10 files', error_input: 'keystores' } });
    const big = await multipart(token, validatorForm({ files: [['big.json', JSON.stringify({ pad: 'x'.repeat(70 * 1024) })]] }));
    expect(big).toEqual({ status: 400, body: { success: false, message: 'big.json: the file is larger than 64 KiB', error_input: 'keystores' } });
    const tooLarge = await multipart(token, validatorForm({ files: Array.from({ length: 10 }, (_, i) => [`p${i}.json`, JSON.stringify({ pad: 'x'.repeat(80 * 1024) })] as [string, string]) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error_input).toBe('keystores');
    const malformed = await fetch(`${s.url}/api/deploy_server`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="currency"\r\n\r\neth',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ success: false, message: 'The upload could not be read (malformed multipart body).' });
    // Keystores sent as text fields, not files.
    const f = validatorForm({ files: [] });
    f.append('keystores', ks.text);
    expect((await multipart(token, f)).body).toEqual({ success: false, message: 'Keystores must be uploaded as files.', error_input: 'keystores' });
    // A part the validators' payload does not have (families.ts) is refused by name.
    const withTxid = validatorForm({ files: [['k.json', ks.text]] });
    withTxid.set('txid', 'a'.repeat(64));
    expect((await multipart(token, withTxid)).body).toEqual({ success: false, message: fieldNotTaken('validator', 'txid') });
    const withBls = validatorForm({ files: [['k.json', ks.text]] });
    withBls.set('blsKey', new Blob(['x']), 'bls.txt');
    expect((await multipart(token, withBls)).body).toEqual({ success: false, message: fieldNotTaken('validator', 'blsKey') });
    // Without a session the upload is refused before any keystore is opened.
    const anon = await fetch(`${s.url}/api/deploy_server`, { method: 'POST', body: validatorForm({ files: [['k.json', ks.text]] }) });
    expect(anon.status).toBe(401);
    // JSON for a validator coin is pointed at the upload.
    expect((await rest('POST', '/api/deploy_server', token, { currency: 'eth', txid: 'x' })).body.error_input).toBe('keystores');
    expect(await counts(s)).toEqual(before);
  });

  it('the browser may send ten full files over tRPC (raised limit for this procedure only)', async () => {
    const pad = (i: number) => JSON.stringify({ note: `"quoted"\n`.repeat(6000), i }).slice(0, 64 * 1024 - 10);
    const keystores = Array.from({ length: 10 }, (_, i) => ({ name: `p${i}.json`, text: pad(i) }));
    const t = await trpc('deploy.deploy_validators', token, { currency: 'eth', password: PASSWORD, fee_recipient: FEE, keystores });
    // Past the body limit; refused as JSON that is not a keystore file.
    expect(t.status).toBe(400);
    expect(t.message).toMatch(/not a JSON file/);
    const other = await fetch(`${s.url}/trpc/deploy.deploy_server`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'pivx', txid: 'x'.repeat(100 * 1024) }),
    });
    expect(other.status).toBe(413);
  });

  it('OpenAPI: one operation for POST /api/deploy_server with a JSON and a multipart body', async () => {
    const doc = await fetch(`${s.url}/api/openapi.json`).then((r) => r.json());
    const op = doc.paths['/api/deploy_server'].post;
    expect(op.operationId).toBe('deploy_deploy_server');
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    const form = op.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(form.properties).sort()).toEqual(['currency', 'fee_recipient', 'keystores', 'package', 'password']);
    expect(form.properties.keystores.type).toBe('array');
  });
});
