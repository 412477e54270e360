import { sql } from 'kysely';
import { MAINNET } from '../support/addresses';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nodeLimitReached } from '../../src/server/deploy/user-limit';
import { DEPLOY_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { fundedUser } from '../support/users';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { clients, makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';

// Attack: one account firing the same Satori deploy of 50 neurons from 20 addresses at
// once took two deploys (100 nodes), every slot of the simulator's 100-slot host, and
// every other customer's deploy then answered "no capacity". MAX_NODES_PER_USER bounds
// one account's share, checked in the deploy's transaction.

let s: TestServer;
const { rest, multipart } = clients(() => s);
const LIMIT = 40;
beforeAll(async () => {
  s = await startTestServer({ MAX_NODES_PER_USER: String(LIMIT) });
});
afterAll(() => stopTestServer(s));

const nodesOf = async (userId: number) =>
  Number(
    (await sql<{ n: number }>`SELECT count(*) AS n FROM nodes WHERE user_id = ${userId}`.execute(s.deps.db)).rows[0].n,
  );

it('one account cannot take the whole fleet with racing Satori deploys; another customer still deploys', async () => {
  const greedy = await fundedUser(s.deps);
  const other = await fundedUser(s.deps);
  const body = { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: LIMIT };
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      requestFrom(loopback(i, 3000), `${s.url}/api/deploy_server`, { body, token: greedy.token }),
    ),
  );
  const ok = answers.filter((a) => a.status === 200);
  expect(ok, JSON.stringify(byStatus(answers))).toHaveLength(1);
  for (const a of answers.filter((x) => x.status !== 200))
    expect([DEPLOY_IN_FLIGHT, nodeLimitReached(LIMIT)]).toContain(a.body.message);
  expect(await nodesOf(greedy.id)).toBe(LIMIT);

  // Past the limit, refused whole, nothing written.
  const over = await rest('POST', '/api/deploy_server', greedy.token, { ...body, neuronCount: 1 });
  expect(over).toEqual({ status: 403, body: { success: false, message: nodeLimitReached(LIMIT) } });
  expect(await nodesOf(greedy.id)).toBe(LIMIT);

  const mine = await rest('POST', '/api/deploy_server', other.token, {
    currency: 'satori',
    rewardAddress: MAINNET.evr,
    neuronCount: 5,
  });
  expect(mine.status, mine.body.message).toBe(200);
});

it('validators count too: an account at its limit is refused before any keystore is decrypted', async () => {
  const u = await fundedUser(s.deps);
  expect(
    (
      await rest('POST', '/api/deploy_server', u.token, {
        currency: 'satori',
        rewardAddress: MAINNET.evr,
        neuronCount: LIMIT,
      })
    ).status,
  ).toBe(200);
  const k = await makeKeystore('pw', smallPbkdf2());
  const r = await multipart(u.token, validatorForm({ files: [['k.json', k.text]], password: 'pw' }));
  expect(r).toEqual({ status: 403, body: { success: false, message: nodeLimitReached(LIMIT) } });
  expect(await nodesOf(u.id)).toBe(LIMIT);
});
