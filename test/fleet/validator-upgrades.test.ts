import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import type { DaemonSpec, NodeEngine, RpcEndpoint } from '../../src/server/fleet/engine';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { Fleet } from '../../src/server/nodes/runtime';
import type { JobRunner } from '../../src/server/jobs/runner';
import { keymanagerTokenOf, openValidatorRun, sealSecrets } from '../../src/server/nodes/node-secrets';
import { makeDeps, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser } from '../support/users';

// Validators deployed before their client had a Keymanager API, on engines that predate it:
// a container without the port's label, sealed secrets without the token.

let d: Deps;
let fleet: Fleet;
let hostId: number;
const specs: DaemonSpec[] = [];
const stopped: string[] = [];
// The beacon node's RPC: its head slot, for the slashing-protection file.
const beacon = http.createServer((req, res) =>
  res.end(JSON.stringify({ data: { head_slot: '9000000', sync_distance: '0', is_syncing: false } })),
);
let beaconPort = 0;

/** A Docker host's engine whose containers were made before they had a Keymanager port label. */
const oldContainers: NodeEngine = {
  kind: 'docker',
  create: async (spec) => void specs.push(spec),
  start: async () => {},
  writeFiles: async () => {},
  stop: async (id) => void stopped.push(id),
  replace: async () => {
    throw new Error('not replaced in this test');
  },
  destroy: async () => {},
  inspect: async () => ({ state: 'running', restarts: 0, startedAt: Date.now(), exitCode: null, error: null }),
  logs: async () => '',
  async rpcEndpoint(id, port): Promise<RpcEndpoint> {
    if (port) throw new Error(`node ${id} has no published ${port} port on docker host (is it running?)`);
    return { host: '127.0.0.1', port: beaconPort };
  },
  list: async () => [],
  close: async () => {},
};

beforeAll(async () => {
  await new Promise<void>((r) => beacon.listen(0, '127.0.0.1', r));
  beaconPort = (beacon.address() as AddressInfo).port;
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  hostId = (
    await insertHost(d.db, {
      name: 'old-docker',
      engine: 'docker',
      url: 'http://127.0.0.1:1',
      ipv4: '203.0.113.7',
      ipv6: null,
      dedicated_slots: 10,
      cloud_slots: 10,
      state: 'active',
      last_error: null,
    })
  ).id;
  let pass: Promise<void> = Promise.resolve();
  const jobs = {
    every: () => {},
    trigger: () => (pass = pass.then(() => (fleet as unknown as { pass(): Promise<void> }).pass())),
  } as unknown as JobRunner;
  fleet = new Fleet(d.db, d.deps.hub, d.log, {
    dataDir: d.deps.config.dataDir,
    secrets: d.deps.secrets,
    profiles: d.deps.fleet.profiles,
    monitor: { nodeMs: 60_000, networkMs: 60_000, concurrency: 1, daemonTimeoutMs: 1_000 },
    jobs,
    dockerFactory: () => oldContainers,
  });
  d.deps.fleet = fleet;
});
afterAll(async () => {
  await fleet?.stop();
  await d?.close();
  await new Promise<void>((r) => beacon.close(() => r()));
});

const pubkey = 'ef'.repeat(48);
const validatorFields = (mnId: string) => ({
  validator_pubkey: pubkey,
  fee_recipient: '0x' + 'b'.repeat(40),
  output_text: JSON.stringify({ pubkey, fee_recipient: '0x' + 'b'.repeat(40) }),
  // Sealed as deploys sealed them before the Keymanager token: keystore and password only.
  secrets: sealSecrets(d.deps.secrets, mnId, {
    keystore: JSON.stringify({ pubkey, crypto: {} }),
    keystore_password: 'pw',
  }),
});

describe('a validator on a container made before its Keymanager port was labelled', () => {
  it('is still stopped on delete and its slashing-protection file answered', async () => {
    const { token, id: userId } = await freshUser(d.deps);
    const mn = 'eth-old-container';
    await insertTestNode(d.db, {
      mn_id: mn,
      user_id: userId,
      coin_id: 'eth',
      state: 'live',
      ...validatorFields(mn),
      status: 'running',
      placement: { host_id: hostId, daemon_profile: 'lighthouse-mainnet' },
    });
    const r = await d.caller(token).nodes.delete_masternode({ mn, reason: 'I will deploy another node' });
    expect(r.message).toBe('Masternode deleted.');
    expect(stopped).toContain(mn);
    const file = JSON.parse(r.slashing_protection!);
    expect(file.data[0].pubkey).toBe(`0x${pubkey}`);
    // From the beacon's head (9000000) plus the margin, not the wall clock alone.
    expect(Number(file.data[0].signed_blocks[0].slot)).toBeGreaterThanOrEqual(9_000_000);
  });
});

describe('a validator whose sealed secrets have no Keymanager token', () => {
  it('is provisioned with a new token instead of failing', async () => {
    const { id: userId } = await freshUser(d.deps);
    const mn = 'eth-no-token';
    await insertTestNode(d.db, {
      mn_id: mn,
      user_id: userId,
      coin_id: 'eth',
      state: 'provisioning',
      ...validatorFields(mn),
      placement: { host_id: hostId, daemon_profile: 'lighthouse-mainnet', server_ip: '203.0.113.7' },
    });
    await fleet.reconcile();
    const row = await d.db.selectFrom('node_view').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();
    expect({ state: row.state, failed: row.failed_reason }).toEqual({ state: 'live', failed: null });
    const token = keymanagerTokenOf(d.deps.secrets, row);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(openValidatorRun(d.deps.secrets, row)?.token).toBe(token);
    // The validator client it was started with holds that token.
    const spec = specs.find((s) => s.nodeId === mn)!;
    expect(spec.files?.some((f) => f.content === token)).toBe(true);
  });
});
