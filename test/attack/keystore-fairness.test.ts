import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPLOAD_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { keystoreQueue, WRONG_PASSWORD } from '../../src/server/nodes/keystore';
import { loopback, type Answer } from '../support/from-ip';
import { fundedUser } from '../support/users';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { counts, makeKeystore, smallPbkdf2, smallScrypt, validatorForm } from '../deploy/support';

// Attack (issue 21): two accounts upload ten keystores of the standard cost (scrypt n = 2^18,
// 256 MiB, about a second each) at once. First come first served, with an account allowed
// both derivation slots, a third customer's one-file upload waited behind several of their
// files. Now each account has one derivation running at a time and a freed slot goes to
// the account served longest ago (a newcomer first), so the third customer waits for at
// most one derivation: its upload finishes within 3x the time it takes on an idle server.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

const STANDARD_N = 2 ** 18;

/** Files of the standard scrypt cost that fail their checksum: each costs one full derivation (made cheaply, then set to the standard n). */
async function standardCostFiles(prefix: string, n: number): Promise<Array<[string, string]>> {
  const base = JSON.parse((await makeKeystore('pw', smallScrypt())).text);
  return Array.from({ length: n }, (_, i) => {
    const k = structuredClone(base);
    k.crypto.kdf.params.n = STANDARD_N;
    k.crypto.kdf.params.salt = crypto.randomBytes(32).toString('hex');
    return [`${prefix}${i}.json`, JSON.stringify(k)];
  });
}

/** A real keystore of the standard scrypt cost, made by @chainsafe/bls-keystore. */
function standardKeystore(password: string) {
  const kdf = smallScrypt();
  return makeKeystore(password, { ...kdf, params: { ...kdf.params, n: STANDARD_N } });
}

/** The multipart upload (POST /api/deploy_server) over a connection from `ip`, so each customer is its own client. */
async function uploadFrom(ip: string, token: string, form: FormData): Promise<Answer & { ms: number }> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(s.url);
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': encoded.headers.get('content-type')!,
      'content-length': String(body.length),
      connection: 'close',
    };
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/api/deploy_server',
        method: 'POST',
        headers,
        localAddress: ip,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), ms: performance.now() - start }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it("two accounts' twenty standard keystores keep a third customer's one-file upload within 3x its idle time", async () => {
  const [heavyA, heavyB, light] = await Promise.all([fundedUser(s.deps), fundedUser(s.deps), fundedUser(s.deps)]);
  const [filesA, filesB, first, second] = await Promise.all([
    standardCostFiles('a', 10),
    standardCostFiles('b', 10),
    standardKeystore('pw'),
    standardKeystore('pw'),
  ]);
  const [ipA, ipB, ipLight] = [loopback(0, 2100), loopback(1, 2100), loopback(2, 2100)];

  // The third customer's upload on an idle server, in this run (the machine's load now).
  const idle = await uploadFrom(
    ipLight,
    light.token,
    validatorForm({ files: [['first.json', first.text]], password: 'pw' }),
  );
  expect(idle.body).toMatchObject({ success: true, message: '1 validator deployed.' });

  const heavyAnswers = Promise.all([
    uploadFrom(ipA, heavyA.token, validatorForm({ files: filesA, password: 'pw' })),
    uploadFrom(ipB, heavyB.token, validatorForm({ files: filesB, password: 'pw' })),
  ]);
  // Both uploads in line (all files but the running ones waiting), then the moment a slot
  // was just handed on: the third customer arrives when the most work is ahead of it.
  const allIn = 20 - keystoreQueue.concurrency;
  await waitFor(async () => keystoreQueue.queued >= allIn, 60_000, 'both heavy uploads in the derivation line');
  await waitFor(async () => keystoreQueue.queued < allIn, 60_000, 'a derivation slot handed on');
  const loaded = await uploadFrom(
    ipLight,
    light.token,
    validatorForm({ files: [['second.json', second.text]], password: 'pw' }),
  );
  expect(loaded.body).toMatchObject({ success: true, message: '1 validator deployed.' });
  expect(loaded.ms, `idle ${Math.round(idle.ms)} ms, under attack ${Math.round(loaded.ms)} ms`).toBeLessThan(
    3 * idle.ms,
  );

  // A second upload from an account whose upload is still being checked is refused at once and changes nothing.
  const before = { nodes: (await counts(s)).nodes, queued: keystoreQueue.queued };
  const cheap = await makeKeystore('pw', smallPbkdf2());
  const again = await uploadFrom(
    ipA,
    heavyA.token,
    validatorForm({ files: [['again.json', cheap.text]], password: 'pw' }),
  );
  expect(again.status).toBe(409);
  expect(again.body).toEqual({ success: false, message: UPLOAD_IN_FLIGHT });
  expect((await counts(s)).nodes).toBe(before.nodes);
  expect(keystoreQueue.queued).toBeLessThanOrEqual(before.queued);

  for (const heavy of await heavyAnswers) {
    expect(heavy.body.success).toBe(false);
    expect(Object.values(heavy.body.data)).toEqual(Array(10).fill({ success: false, message: WRONG_PASSWORD }));
  }
  expect(keystoreQueue.active).toBe(0);
}, 180_000);
