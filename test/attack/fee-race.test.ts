import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DaemonAccess } from '../../src/server/fleet/access';
import type { Fleet } from '../../src/server/nodes/runtime';
import { newNodeId, requestNode } from '../../src/server/nodes/lifecycle';
import { sealSecrets } from '../../src/server/nodes/node-secrets';
import { serverBusyMessage } from '../../src/server/guards/call-budget';
import { waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { machineFactor } from '../support/machine-speed';
import { loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Attack: 100 update_validator_fee at once, each with its own address and from its own
// loopback address, while the validator client answers after a random delay (so calls
// that were not serialised would land out of order), some of them refused by the client.
// The row, the output text and the client's Keymanager must end on the same address.

const dataDir = tempDataDir('nodekeep-fee-race-');
const fleetEnv = fastFleetEnv(dataDir);
let s: TestServer;
let owner: FreshUser;
let proxy: http.Server;

/** Addresses the proxy answers 500 for (the client refusing), before forwarding anything. */
const refuse = new Set<string>();
/** Addresses whose set call the client takes but whose answer never comes in time (held 12 s). */
const hold = new Set<string>();
const simPort = () => Number(fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8'));
const token = 'f0'.repeat(32);

beforeAll(async () => {
  s = await startTestServer(fleetEnv, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'fee' });
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString();
      const delay = Math.floor(Math.random() * 100);
      setTimeout(() => {
        if ([...refuse].some((a) => text.includes(a))) {
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ code: 500, message: 'client busy' }));
        }
        const held = req.method === 'POST' && [...hold].some((a) => text.includes(a));
        const fwd = http.request(
          { host: '127.0.0.1', port: simPort(), path: req.url, method: req.method, headers: req.headers },
          (r) => {
            // The answer comes back after another random delay: a reply can overtake an earlier one.
            setTimeout(
              () => {
                if (res.destroyed) return r.resume();
                res.writeHead(r.statusCode ?? 502, r.headers);
                r.pipe(res);
              },
              held ? 12_000 : Math.floor(Math.random() * 100),
            );
          },
        );
        fwd.on('error', () => res.destroy());
        fwd.end(body);
      }, delay);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as AddressInfo).port;
  const fleet = s.deps.fleet as unknown as Fleet;
  const daemonOf = fleet.daemonOf.bind(fleet);
  fleet.daemonOf = async (n) => {
    const d = await daemonOf(n);
    if (!d?.keymanager) return d;
    const keymanager = d.keymanager;
    return {
      ...d,
      keymanager: async () => ({ ...(await keymanager()), host: '127.0.0.1', port }),
    } satisfies DaemonAccess;
  };
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await stopTestServer(s);
});

const row = (mn: string) => s.deps.db.selectFrom('nodes').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
const clientFee = async (mn: string, pubkey: string) => {
  const r = await fetch(`http://127.0.0.1:${simPort()}/n/${mn}/eth/v1/validator/${pubkey}/feerecipient`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as any).data.ethaddress as string;
};

async function liveValidator(pubkey: string, feeRecipient: string) {
  const mn_id = newNodeId('eth');
  const secrets = sealSecrets(s.deps.secrets, mn_id, {
    keystore: '{"version":4}',
    keystore_password: 'pw',
    keymanager_token: token,
  });
  const n = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
    { userId: owner.id, coinId: 'eth', plan: 'dedicated' },
    {
      mn_id,
      validator_pubkey: pubkey,
      fee_recipient: feeRecipient,
      output_text: JSON.stringify({ pubkey, fee_recipient: feeRecipient }),
      secrets,
    },
  );
  await s.deps.fleet.reconcile();
  await waitFor(async () => (await row(n.mn_id)).state === 'live', 20_000, 'validator live');
  await waitFor(async () => (await clientFee(n.mn_id, pubkey).catch(() => null)) === feeRecipient, 20_000, 'client up');
  return n.mn_id;
}

const addr = (i: number) => '0x' + (i + 1).toString(16).padStart(4, '0').repeat(10);

it('100 different fee recipients at once from 100 addresses: the row, the output text and the client end on the same address', async () => {
  const pubkey = '0x' + '5e'.repeat(48);
  const mn = await liveValidator(pubkey, '0x' + 'd'.repeat(40));
  const addrs = Array.from({ length: 100 }, (_, i) => addr(i));
  const answers = await Promise.all(
    addrs.map((fee_recipient, i) =>
      requestFrom(loopback(i, 100), s.url + '/api/update_validator_fee', {
        body: { mn, fee_recipient, change_for: 'only_this' },
        token: owner.token,
      }),
    ),
  );
  // On a loaded machine a few may wait past the admission line's 10 s (the changes of one
  // node take turns, each a round trip to the client): those are refused before any work,
  // "server busy", and change nothing. On a machine measured quiet every one succeeds, and
  // on a slow one at most a quarter may be refused.
  answers.forEach((a, i) => {
    if (a.status !== 200) expect([a.status, a.body.message], `${i}`).toEqual([429, serverBusyMessage(1)]);
  });
  const accepted = addrs.filter((_, i) => answers[i].status === 200);
  expect(100 - accepted.length).toBeLessThanOrEqual(machineFactor() > 1 ? 25 : 0);
  const client = await clientFee(mn, pubkey);
  expect(accepted).toContain(client);
  const r = await row(mn);
  expect(r.fee_recipient).toBe(client);
  expect(JSON.parse(r.output_text!).fee_recipient).toBe(client);
}, 120_000);

it('100 at once, a third refused by the client and a third invalid: whatever wins, row and client agree, refusals change nothing', async () => {
  const pubkey = '0x' + '4f'.repeat(48);
  const first = '0x' + 'e'.repeat(40);
  const mn = await liveValidator(pubkey, first);
  const addrs = Array.from({ length: 100 }, (_, i) =>
    i % 3 === 2 ? '0x' + 'Ab'.repeat(20) /* bad checksum */ : addr(200 + i),
  );
  for (let i = 1; i < 100; i += 3) refuse.add(addrs[i].slice(2));
  const answers = await Promise.all(
    addrs.map((fee_recipient, i) =>
      requestFrom(loopback(i, 400), s.url + '/api/update_validator_fee', {
        body: { mn, fee_recipient, change_for: 'only_this' },
        token: owner.token,
      }),
    ),
  );
  answers.forEach((a, i) => {
    if (i % 3 === 0) expect(a.status, `${i} ${JSON.stringify(a.body)}`).toBe(200);
    else expect(a.body.success, `${i} ${JSON.stringify(a.body)}`).toBe(false);
  });
  const client = await clientFee(mn, pubkey);
  expect(addrs.filter((_, i) => i % 3 === 0)).toContain(client);
  const r = await row(mn);
  expect(r.fee_recipient).toBe(client);
  expect(JSON.parse(r.output_text!).fee_recipient).toBe(client);
}, 120_000);

it('the client takes the change but its answer never comes (timeout): the row follows what the client holds', async () => {
  const pubkey = '0x' + '3a'.repeat(48);
  const first = '0x' + 'c'.repeat(40);
  const mn = await liveValidator(pubkey, first);
  const next = addr(900);
  hold.add(next.slice(2));
  const r = await requestFrom(loopback(0, 800), s.url + '/api/update_validator_fee', {
    body: { mn, fee_recipient: next, change_for: 'only_this' },
    token: owner.token,
  });
  const client = await clientFee(mn, pubkey);
  expect(client).toBe(next); // the client did take it
  const row_ = await row(mn);
  // Whatever the owner was told, the row names what the client uses.
  expect(row_.fee_recipient).toBe(client);
  expect(JSON.parse(row_.output_text!).fee_recipient).toBe(client);
  expect(r).toEqual({ status: 200, body: { success: true, message: `Fee recipient changed to ${next}.` } });
}, 60_000);
