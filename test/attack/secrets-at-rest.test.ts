import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keymanagerTokenOf, openMasternodeKey, openNodeSecrets } from '../../src/server/nodes/node-secrets';
import { makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';
import { waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser, type FreshUser } from '../support/users';

// Attack: after deploying a classic node, a dip003 node, a smartnode started by quick
// setup and a validator, look for their secrets (masternode key, BLS secrets, keystore
// password and secret key, Keymanager token) everywhere the platform writes: the SQLite
// file and its WAL, the server's log, every file of the data folder (fleet records,
// node.json, pid files, the simulator's log), and the command lines of every process.
// Files that must hold a secret (the sealing key, daemon config and keystore files) are
// owner-only (0600).

const dataDir = tempDataDir('nodekeep-secrets-attack-');
const fleetEnv = fastFleetEnv(dataDir);
let s: TestServer;
let u: FreshUser;
const PASSWORD = 'Keystore-Pass-\u00e9-31337';

beforeAll(async () => {
  s = await startTestServer(fleetEnv, { dataDir });
  u = await fundedUser(s.deps);
});
afterAll(() => stopTestServer(s));

const call = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
  const r = await fetch(s.url + p, {
    method,
    headers: { authorization: `Bearer ${u.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as any };
};
const row = (mn: string) => s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
const status = async (mn: string) => (await call('GET', `/api/get_masternode?masternode=${mn}`)).body.data?.status;

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

it('no secret in the database file, its WAL, the log, any data-folder file but the ones made for it, or a command line', async () => {
  // Classic: the masternode key is made at deploy.
  const pivx = await call('POST', '/api/deploy_server', { currency: 'pivx', txid: `${'c1'.repeat(32)}-0` });
  expect(pivx.status, JSON.stringify(pivx.body)).toBe(200);
  // dip003: the operator BLS secret is made at deploy.
  const dash = await call('POST', '/api/deploy_server', { currency: 'dash', txid: 'c2'.repeat(32) });
  expect(dash.status, JSON.stringify(dash.body)).toBe(200);
  // Smartnode: started by quick setup with the owner's key.
  const rtm = await call('POST', '/api/deploy_server', { currency: 'rtm', txid: 'c3'.repeat(32) });
  expect(rtm.status, JSON.stringify(rtm.body)).toBe(200);
  // Validator: keystore, password, and the Keymanager token made at deploy.
  const ks = await makeKeystore(PASSWORD, smallPbkdf2());
  const vr = await fetch(`${s.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}` },
    body: validatorForm({ files: [['k.json', ks.text]], password: PASSWORD }),
  });
  const validator = (await vr.json()) as any;
  expect(vr.status, JSON.stringify(validator)).toBe(200);

  const ids = {
    pivx: pivx.body.server_id as string,
    dash: dash.body.server_id as string,
    rtm: rtm.body.server_id as string,
    eth: validator.server_id as string,
  };
  for (const mn of Object.values(ids))
    await waitFor(async () => (await row(mn)).state === 'live', 30_000, `${mn} live`);
  await waitFor(async () => (await status(ids.rtm)) === 'start required', 30_000, 'rtm start required');
  const quickKey = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
  const started = await call('POST', '/api/quick_setup', { mn: ids.rtm, secret: `smartnodeblsprivkey=${quickKey}` });
  expect(started.status, JSON.stringify(started.body)).toBe(200);

  const box = s.deps.secrets;
  const secrets: Record<string, string> = {
    'classic masternode key': openMasternodeKey(box, await row(ids.pivx))!,
    'dip003 operator BLS secret': openNodeSecrets(box, await row(ids.dash))!.operatorSecret!,
    'quick-setup BLS secret': quickKey,
    'keystore password': PASSWORD,
    'validator secret key': ks.secret,
    'keymanager token': keymanagerTokenOf(box, await row(ids.eth))!,
  };
  for (const [what, v] of Object.entries(secrets)) expect(v, what).toMatch(/^.{16,}$/);
  expect(openNodeSecrets(box, await row(ids.rtm))!.operatorSecret).toBe(quickKey);

  // Let the monitor and the control loop write whatever they write: the witness is a
  // monitor check of every node begun after this point, not a fixed wait.
  const since = Date.now();
  await waitFor(
    async () => {
      const checked = await s.deps.db
        .selectFrom('nodes')
        .leftJoin('observations', 'observations.node_id', 'nodes.id')
        .select('observations.checked_at')
        .where('nodes.user_id', '=', u.id)
        .execute();
      return checked.length > 0 && checked.every((c) => (c.checked_at ?? 0) > since);
    },
    30_000,
    'a monitor check of every node after the secrets were stored',
  );

  const forms = (v: string) =>
    [v, v.toUpperCase(), Buffer.from(v).toString('base64')].filter((x, i, a) => a.indexOf(x) === i);
  const found = (text: string) =>
    Object.entries(secrets)
      .filter(([, v]) => forms(v).some((f) => text.includes(f)))
      .map(([what]) => what);
  const leaks: string[] = [];
  for (const f of [s.config.dbFile, `${s.config.dbFile}-wal`, `${s.config.dbFile}-shm`]) {
    if (fs.existsSync(f))
      for (const what of found(fs.readFileSync(f).toString('latin1'))) leaks.push(`${what} in ${path.basename(f)}`);
  }
  for (const what of found(s.logLines.join('\n'))) leaks.push(`${what} in the server log`);
  for (const what of found(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })))
    leaks.push(`${what} in a command line`);
  // Every file of the data folder but the database (above): a secret may sit only in what
  // stands for a daemon's own files (its record and config, the simulated daemons' state),
  // and only when the file is owner-only.
  const files = allFiles(dataDir).filter((f) => !f.startsWith(s.config.dbFile));
  const daemonOwn =
    /(^|\/)(node\.json|state\.json|simulated-secrets\.json|[^/]+\.conf|[^/]+\.ya?ml|keystore[^/]*|[^/]*token[^/]*|[^/]*password[^/]*)$/;
  const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
  for (const f of files) {
    const rel = path.relative(dataDir, f);
    for (const what of found(fs.readFileSync(f).toString('latin1'))) {
      if (!daemonOwn.test(rel)) leaks.push(`${what} in ${rel}`);
      else if (mode(f) !== '600') leaks.push(`${what} in ${rel}, mode ${mode(f)}`);
    }
  }
  expect(leaks).toEqual([]);

  // The sealing key is owner-only too.
  const key = files.filter((f) => path.basename(f) === 'secrets.key');
  expect(key.length).toBe(1);
  expect(mode(key[0])).toBe('600');
}, 180_000);
