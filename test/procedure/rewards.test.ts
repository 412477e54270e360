import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import type { Host } from '../../src/server/db/schema';
import type { Observation } from '../../src/server/fleet/daemons/observation';
import type { EngineRegistry } from '../../src/server/fleet/engines/registry';
import { fleetMetrics } from '../../src/server/fleet/metrics';
import { loadProfiles } from '../../src/server/fleet/profiles';
import { upsertQuote } from '../../src/server/market/queries';
import { Monitor } from '../../src/server/nodes/monitor';
import { makeDeps, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';

// The monitor's real check (observation → status, reward, alerts, in one transaction) over a
// real database, with the engine and the daemon's answers handed in: no sockets. A Dash node
// is paid 1.7 × 0.6 = 1.02 DASH a reward (the catalog's block reward and node share).
let d: Deps;
let monitor: Monitor;
let hostId: number;
/** What each node's daemon answers: its tip and the last height that paid it. */
const chain = new Map<string, { blocks: number; lastPaidHeight: number | null }>();

const observe = async (node: { mn_id: string }): Promise<Observation> => {
  const c = chain.get(node.mn_id)!;
  return {
    synced: true,
    blocks: c.blocks,
    headers: c.blocks,
    wallet: { version: '22.1.3', protocol_version: '70232', connections: 8 },
    networkStatus: 'ENABLED',
    startRequired: false,
    lastPaidHeight: c.lastPaidHeight,
    rewardFrequencyS: 600,
    posePenalty: 0,
    poseBanHeight: null,
    collateralAddress: null,
  };
};

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  hostId = (
    await d.db
      .insertInto('hosts')
      .values({
        name: 'h-rewards',
        engine: 'local',
        url: null,
        ipv4: '203.0.113.7',
        ipv6: null,
        dedicated_slots: 10,
        cloud_slots: 10,
        state: 'active',
        last_error: null,
        created_at: Date.now(),
        disk_free_bytes: null,
        disk_total_bytes: null,
        disk_checked_at: null,
        disk_low_at: null,
        memory_total_bytes: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const engine = {
    inspect: async () => ({
      state: 'running' as const,
      restarts: 0,
      startedAt: Date.now(),
      exitCode: null,
      error: null,
    }),
    rpcEndpoint: async () => ({ host: '127.0.0.1', port: 9, path: '' }),
  };
  const engines = { for: () => engine } as unknown as EngineRegistry<Host>;
  monitor = new Monitor(d.db, engines, loadProfiles('catalog/daemons.json'), d.deps.hub, fleetMetrics(), d.log, {
    nodeMs: 60_000,
    networkMs: 60_000,
    concurrency: 1,
    daemonTimeoutMs: 1000,
    observe,
  });
});
afterAll(() => d.close());

const setPrice = (usd: number) =>
  upsertQuote(
    d.db,
    'dash',
    'test',
    { market_id: 'dash', price_usd: usd, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
    Date.now(),
  );

/** A live Dash node of the user, running on the host: a real one (dashd) or a simulated one. */
async function dashNode(u: FreshUser, simulated: boolean): Promise<string> {
  const mnId = `dash-${simulated ? 'sim' : 'real'}${Math.random().toString(16).slice(2, 8)}`;
  await insertTestNode(d.db, {
    mn_id: mnId,
    user_id: u.id,
    coin_id: 'dash',
    hosting_price: 100_000,
    simulated: simulated ? 1 : 0,
    status: 'running',
    placement: { host_id: hostId, daemon_profile: simulated ? 'simulator-dash' : 'dashd' },
    observation: { first_answer_at: Date.now() },
  });
  chain.set(mnId, { blocks: 1000, lastPaidHeight: null });
  return mnId;
}

/** The daemon reports a payment at `height`; the monitor checks the node (status and network). */
async function paidAt(mnId: string, height: number) {
  chain.set(mnId, { blocks: height + 2, lastPaidHeight: height });
  await monitor.check(mnId);
}

const rewardKinds = async (u: FreshUser) =>
  (await d.db.selectFrom('notifications').select(['kind', 'message']).where('user_id', '=', u.id).execute()).filter(
    (r) => r.kind === 'first_reward' || r.kind === 'reward',
  );
const rewardRows = (mnId: string) =>
  d.db.selectFrom('node_rewards').selectAll().where('mn_id', '=', mnId).orderBy('height').execute();

describe('rewards seen by the monitor', () => {
  it('a simulated node earns nothing: no reward notification, no reward row, no last reward, while a real node does', async () => {
    const u = await freshUser(d.deps, { prefix: 'rwsim' });
    await setPrice(30);
    const sim = await dashNode(u, true);
    const real = await dashNode(u, false);

    await paidAt(sim, 1001);
    await paidAt(sim, 1005);
    await paidAt(real, 1001);

    expect(await rewardRows(sim)).toEqual([]);
    const simPage = (await d.caller(u.token).nodes.get_masternode({ masternode: sim })).data;
    expect(simPage.last_paid).toBeNull();
    expect(simPage.setup.last_paid_block).toBeNull();
    expect(simPage.reward_freq).toBeNull();
    expect(await d.caller(u.token).nodes.get_rewards({ masternode: sim })).toMatchObject({
      rewards: [],
      simulated_only: true,
      last_30_days: { count: 0, usd: 0 },
    });

    // The real node: one first reward, its row, and its last reward on the page.
    expect(await rewardKinds(u)).toEqual([
      { kind: 'first_reward', message: `Your Dash node ${real} received its first reward: 1.02 DASH.` },
    ]);
    expect(await rewardRows(real)).toMatchObject([{ height: 1001, amount_atomic: 102_000_000, price_usd: 30 }]);
    const realPage = (await d.caller(u.token).nodes.get_masternode({ masternode: real })).data;
    expect(realPage.last_paid).not.toBeNull();
    expect(realPage.setup.last_paid_block).toBe(1001);
  });

  it('keeps each reward at the USD value of the price the platform held when it arrived, once per paid height', async () => {
    const u = await freshUser(d.deps, { prefix: 'rwusd' });
    const real = await dashNode(u, false);
    await setPrice(30);
    await paidAt(real, 1001);
    await setPrice(40);
    // Seen again at the same height: nothing new.
    await paidAt(real, 1001);
    await paidAt(real, 1010);

    expect((await rewardKinds(u)).map((r) => r.kind)).toEqual(['first_reward', 'reward']);
    const r = await d.caller(u.token).nodes.get_rewards({});
    expect(r.simulated_only).toBe(false);
    expect(r.rewards.map((x) => [x.height, x.amount, x.price_usd, x.usd])).toEqual([
      [1010, '1.02', 40, 40.8],
      [1001, '1.02', 30, 30.6],
    ]);
    expect(r.rewards[0]).toMatchObject({ mn_id: real, currency_data: { id: 'dash', ticker: 'DASH' } });
    expect(r.last_30_days).toEqual({ count: 2, usd: 71.4, unpriced: 0 });
    expect(r.total).toEqual({ count: 2, usd: 71.4, unpriced: 0 });
  });

  it('says a portfolio of simulated nodes only earns nothing, and refuses another user’s node', async () => {
    const u = await freshUser(d.deps, { prefix: 'rwonly' });
    const sim = await dashNode(u, true);
    await paidAt(sim, 1001);
    expect(await d.caller(u.token).nodes.get_rewards({})).toEqual({
      rewards: [],
      last_30_days: { count: 0, usd: 0, unpriced: 0 },
      total: { count: 0, usd: 0, unpriced: 0 },
      simulated_only: true,
    });
    const other = await freshUser(d.deps, { prefix: 'rwother' });
    await expect(d.caller(other.token).nodes.get_rewards({ masternode: sim })).rejects.toThrow('Masternode not found.');
    // No nodes at all: nothing earned, and nothing simulated to explain it.
    expect((await d.caller(other.token).nodes.get_rewards({})).simulated_only).toBe(false);
  });
});
