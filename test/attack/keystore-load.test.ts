import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_PBKDF2_C } from '../../src/server/nodes/keystore-format';
import { WRONG_PASSWORD, keystoreQueue } from '../../src/server/nodes/keystore';
import { fundedUser } from '../support/users';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { clients, makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';

// Attack: one customer uploads ten keystores whose key derivation costs the most we allow.
// Key derivation runs two at a time for the whole server, first come first served, so
// another customer's single small keystore waited behind all ten (25 s with the standard
// scrypt). The line is now shared fairly between uploaders: the other customer waits for
// at most one derivation, while the heavy upload still completes.

let s: TestServer;
const { multipart, rest } = clients(() => s);
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

/** A keystore made cheaply, then set to the costliest pbkdf2 we accept: deriving it costs the full price (and fails the checksum). */
async function costly() {
  const k = JSON.parse((await makeKeystore('pw', smallPbkdf2())).text);
  k.crypto.kdf.params.c = MAX_PBKDF2_C;
  return JSON.stringify(k);
}

it("one customer's ten costly keystores do not make another customer's upload wait behind them", async () => {
  const heavy = await fundedUser(s.deps);
  const light = await fundedUser(s.deps);
  const files: Array<[string, string]> = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => [`h${i}.json`, await costly()] as [string, string]),
  );
  const small = await makeKeystore('pw', smallPbkdf2());

  const t0 = performance.now();
  const heavyDone = multipart(heavy.token, validatorForm({ files, password: 'pw' })).then((r) => ({
    r,
    ms: performance.now() - t0,
  }));
  // The heavy upload reaches the line first: its ten derivations are in it (all queued at once).
  await expect.poll(() => keystoreQueue.active + keystoreQueue.queued, { interval: 5 }).toBeGreaterThan(0);
  const t1 = performance.now();
  const lightAnswer = await multipart(
    light.token,
    validatorForm({ files: [['mine.json', small.text]], password: 'pw' }),
  );
  const lightMs = performance.now() - t1;
  // Meanwhile plain requests answer at once (derivation is off the event loop).
  const t2 = performance.now();
  expect((await rest('GET', '/api/get_building_servers', light.token)).status).toBe(200);
  const plainMs = performance.now() - t2;
  const { r: heavyAnswer, ms: heavyMs } = await heavyDone;

  expect(lightAnswer.body).toMatchObject({ success: true, message: '1 validator deployed.' });
  expect(heavyAnswer.body.success).toBe(false);
  expect(Object.values(heavyAnswer.body.data)).toEqual(Array(10).fill({ success: false, message: WRONG_PASSWORD }));
  // The heavy account's ten derivations run one at a time; the light upload waited for at
  // most one of them (behind the heavy one, it would wait all ten: as long as the heavy upload).
  expect(lightMs, `light ${Math.round(lightMs)} ms, heavy ${Math.round(heavyMs)} ms`).toBeLessThan(heavyMs * 0.7);
  // On the event loop, the derivations would hold it for most of the heavy upload.
  expect(plainMs, `plain ${Math.round(plainMs)} ms, heavy ${Math.round(heavyMs)} ms`).toBeLessThan(heavyMs * 0.5);
}, 60_000);
