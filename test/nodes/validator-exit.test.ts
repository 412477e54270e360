import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_SIMULATED, EXIT_SENT, NOT_DEPOSITED, NOT_SIMULATED_VALIDATOR } from '../../src/server/nodes/actions';
import { newNodeId, requestNode } from '../../src/server/nodes/lifecycle';
import { sealSecrets } from '../../src/server/nodes/node-secrets';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser, type FreshUser } from '../support/users';
import { waitFor } from '../support/wait';

// An ETH validator's life as the beacon chain tells it, against the running platform with
// the simulator on fast clocks: "start required" until its deposit is seen, then pending
// and running (active) as the beacon node says; the owner's confirmed voluntary exit is
// signed by the validator client (Keymanager API), published by the beacon node, and sent
// once under 100 identical requests; the validator then shows exiting, and exited.

const dataDir = tempDataDir('nodekeep-vexit-');
let s: TestServer;
let owner: FreshUser;
let other: FreshUser;
beforeAll(async () => {
  s = await startTestServer(fastFleetEnv(dataDir), { dataDir });
  owner = await fundedUser(s.deps, { prefix: 'vx' });
  other = await fundedUser(s.deps, { prefix: 'vxo' });
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const call = async (method: 'GET' | 'POST', p: string, u: FreshUser, body?: unknown) => {
  const r = await fetch(s.url + p, {
    method,
    headers: { authorization: `Bearer ${u.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
};
const detail = async (mn: string) => (await call('GET', `/api/get_masternode?masternode=${mn}`, owner)).body.data;
const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
const sim = (p: string, method = 'GET') => fetch(`http://127.0.0.1:${simPort()}${p}`, { method }).then((r) => r.json());

describe('validator deposit and exit', () => {
  it(
    'start required until the deposit is seen, active after; a confirmed exit is sent once and the validator exits',
    { timeout: 90_000 },
    async () => {
      const pubkey = '0x' + 'c3'.repeat(48);
      const mn_id = newNodeId('eth');
      const token = 'e1'.repeat(32);
      await requestNode(
        s.deps.db,
        { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
        { userId: owner.id, coinId: 'eth', plan: 'dedicated' },
        {
          mn_id,
          validator_pubkey: pubkey,
          fee_recipient: '0x' + 'b'.repeat(40),
          output_text: JSON.stringify({ pubkey, fee_recipient: '0x' + 'b'.repeat(40) }),
          secrets: sealSecrets(s.deps.secrets, mn_id, {
            keystore: '{"version":4}',
            keystore_password: 'pw',
            keymanager_token: token,
          }),
        },
      );
      await s.fleet.reconcile();
      const mn = mn_id;
      await waitFor(async () => (await detail(mn))?.status === 'start required', 20_000, 'waiting for its deposit');
      expect((await detail(mn)).status_on_network).toBeNull();

      // Before the deposit: nothing to exit; no confirmation: refused; another's node: not found.
      const early = await call('POST', '/api/exit_validator', owner, { mn, confirm: true });
      expect(early).toEqual({ status: 400, body: { success: false, message: NOT_DEPOSITED } });
      const unconfirmed = await call('POST', '/api/exit_validator', owner, { mn, confirm: false });
      expect(unconfirmed.status).toBe(400);
      expect(JSON.stringify(unconfirmed.body)).toContain('Confirm the exit: it cannot be undone.');
      expect((await call('POST', '/api/exit_validator', other, { mn, confirm: true })).status).toBe(404);

      // The demo's deposit (a simulated chain takes no real one): another's node is not
      // found; 100 at once all answer the same and the chain sees one deposit.
      expect((await call('POST', '/api/simulate_deposit', other, { mn })).status).toBe(404);
      const pivx = await requestNode(
        s.deps.db,
        { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
        { userId: owner.id, coinId: 'pivx', plan: 'dedicated' },
      );
      expect(await call('POST', '/api/simulate_deposit', owner, { mn: pivx.mn_id })).toEqual({
        status: 400,
        body: { success: false, message: NOT_SIMULATED_VALIDATOR },
      });
      const deposits = await Promise.all(
        Array.from({ length: 100 }, () => call('POST', '/api/simulate_deposit', owner, { mn })),
      );
      expect(new Set(deposits.map((d) => JSON.stringify(d)))).toEqual(
        new Set([JSON.stringify({ status: 200, body: { success: true, message: DEPOSIT_SIMULATED } })]),
      );
      await waitFor(
        async () => {
          const d = await detail(mn);
          return d.status === 'running' && d.status_on_network === 'ACTIVE_ONGOING';
        },
        20_000,
        'active on the beacon chain',
      );

      // 100 identical exits at once: one is sent; the others are told it is exiting (or, on
      // the fast clock, already exited).
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => call('POST', '/api/exit_validator', owner, { mn, confirm: true })),
      );
      const sent = answers.filter((a) => a.status === 200);
      expect(sent).toEqual([{ status: 200, body: { success: true, message: EXIT_SENT } }]);
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(400);
        expect(a.body.message).toMatch(/^(This validator is already exiting\.|.* is exited_unslashed\.)$/);
      }
      expect(await sim(`/n/${mn}/eth/v1/beacon/states/head/validators/${pubkey}`)).toMatchObject({
        data: { status: expect.stringMatching(/^(active_exiting|exited_unslashed)$/) },
      });
      await waitFor(
        async () => {
          const d = await detail(mn);
          return d.status_on_network === 'EXITED_UNSLASHED' && d.status === 'removed';
        },
        20_000,
        'exited',
      );
      const late = await call('POST', '/api/exit_validator', owner, { mn, confirm: true });
      expect(late.body.message).toBe(
        'Only an active validator can exit; its status on the beacon chain is exited_unslashed.',
      );
    },
  );
});
