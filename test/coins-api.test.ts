import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { income, roiPercent } from '../src/shared/roi';
import { snapshot } from './support/db-snapshot';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { waitFor } from './support/wait';
import { freshUser } from './support/users';
import { insertTestNode } from './support/nodes';

let s: TestServer;
let token: string;
let userId: number;

const get = (path: string, auth?: string) =>
  fetch(s.url + path, { headers: auth ? { authorization: `Bearer ${auth}` } : {} }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));
const quiet = { out: () => {} };
const cli = (...args: string[]) => runCli(args, { DATA_DIR: s.dataDir }, quiet);
/**
 * Public coin calls are cached for a second: after a change, get_coins is asked until
 * its answer shows the change (a positive signal, not a sleep), and that answer is returned.
 */
const coinsShowing = (what: string, shows: (body: any) => boolean) =>
  waitFor(
    async () => {
      const { body } = await get('/public_api/get_coins');
      return shows(body) && body;
    },
    10_000,
    what,
  );

beforeAll(async () => {
  s = await startTestServer();
  ({ token, id: userId } = await freshUser(s.deps, { prefix: 'coiner' }));
  // The demo market data is refreshed right after start: wait until get_coins shows it.
  await coinsShowing('demo market data', (b) => typeof b.data?.dash?.masternode_value.value === 'number');
});
afterAll(() => stopTestServer(s));

async function host(coin: string, n: number) {
  for (let i = 0; i < n; i++) {
    await insertTestNode(s.deps.db, {
      mn_id: `${coin}-${i}-${Math.random().toString(36).slice(2, 8)}`,
      user_id: userId,
      coin_id: coin,
      status: 'running',
    });
  }
}

describe('GET /public_api/get_coins', () => {
  it('lists every listed coin with display objects, hosted first', async () => {
    const { status, body } = await get('/public_api/get_coins');
    expect(status).toBe(200);
    expect(body.market_provider).toBe('demo');
    expect(body.order).not.toContain('pac'); // delisted, nothing hosted
    expect(body.order).toHaveLength(34);
    const dash = body.data.dash;
    expect(Object.keys(dash).sort()).toEqual(
      [
        'collateral',
        'coming_soon',
        'delisted',
        'host_price',
        'hosted_mns',
        'id',
        'label',
        'logo',
        'maintenance',
        'masternode_value',
        'price_change',
        'revenue_mo',
        'roi',
        'ticker',
      ].sort(),
    );
    expect(dash.collateral).toEqual({
      value: 1000,
      round: 2,
      prefix: '',
      suffix: ' DASH',
      format: 'number',
      color: '',
      mustsee: false,
    });
    expect(dash.roi.value).toBeCloseTo(
      roiPercent({ block_time_s: 150, block_reward: 1.7, node_share: 0.6, network_nodes: 3000 }, 1000)!,
      10,
    );
    // dash runs a campaign: its cheapest plan is the campaign cloud price.
    expect(dash.host_price).toBe(0.045);
    expect(body.data.bitg.maintenance).toBe(true);
    expect(body.data.eth.host_price).toBe(0.33); // no cloud plan: dedicated
  });

  it('puts coins with hosted nodes first and shows a delisted coin while it has nodes', async () => {
    await host('firo', 3);
    await host('pac', 1);
    const body = await coinsShowing('pac listed', (b) => b.order.includes('pac'));
    expect(body.order.slice(0, 2)).toEqual(['firo', 'pac']);
    expect(body.data.pac).toMatchObject({ delisted: true, hosted_mns: { value: 1 } });
    await s.deps.db
      .updateTable('nodes')
      .set({ state: 'deleted', deleted_at: Date.now() })
      .where('coin_id', '=', 'pac')
      .execute();
    expect((await coinsShowing('pac gone', (b) => !b.order.includes('pac'))).order).not.toContain('pac');
  });
});

describe('GET /public_api/get_coin', () => {
  it('answers the detail with charts of the last 60 points and market data', async () => {
    const { status, body } = await get('/public_api/get_coin?coin=dash');
    expect(status).toBe(200);
    const d = body.data;
    expect(d).toMatchObject({ id: 'dash', ticker: 'DASH', collateral: 1000, cloud: true, logo: '/logos/dash.svg' });
    expect(d.charts.map((c: any) => c.name)).toEqual(['Price', 'Market cap', 'Volume']);
    expect(d.charts[0].values).toHaveLength(60);
    expect(d.charts[0].labels).toHaveLength(60);
    expect(d.market_data.price).toBeGreaterThan(0);
    expect(d.exchanges.length).toBeGreaterThan(0);
    expect(d.exchanges.reduce((sum: number, e: any) => sum + e.volume_percent, 0)).toBeCloseTo(100, 0);
    expect(d.statistics.find((x: any) => x.variable === 'revenue_mo').value).toBeCloseTo(
      income(1000, d.market_data.price, d.roi).monthly,
      8,
    );
  });

  it('names each figure once in the specification and statistics tables', async () => {
    for (const r of (await get('/public_api/get_detailed')).body.data) {
      const d = (await get(`/public_api/get_coin?coin=${r.id}`)).body.data;
      for (const table of [d.specifications, d.statistics]) {
        const labels = table.map((x: any) => x.label.toLowerCase());
        expect(labels, r.id).toEqual([...new Set(labels)]);
      }
    }
  });

  it('answers 404 for an unknown coin and 400 for a bad query', async () => {
    expect(await get('/public_api/get_coin?coin=doesnotexist')).toEqual({
      status: 404,
      body: { success: false, message: 'Unknown coin "doesnotexist".' },
    });
    expect((await get('/public_api/get_coin')).status).toBe(400);
    const bad = await get('/public_api/get_coin?coin=' + encodeURIComponent('<script>'));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^coin: /);
    expect((await get('/public_api/get_coin?coin=dash&extra=1')).body.message).toMatch(/unknown field: extra/);
  });

  it('serves the same procedure over tRPC', async () => {
    const res = await fetch(
      `${s.url}/trpc/coins.get_coin?input=${encodeURIComponent(JSON.stringify({ coin: 'firo' }))}`,
    );
    expect((await res.json()).result.data.data.ticker).toBe('FIRO');
  });
});

describe('stats, detailed and deploy info', () => {
  it('get_stats sums hosted nodes and their value', async () => {
    const { body } = await get('/public_api/get_stats');
    const coins = (await get('/public_api/get_coins')).body;
    expect(body.data.total_mns).toBe(3);
    expect(body.data.supported_mns).toBe(34);
    const firoValue = coins.data.firo.masternode_value.value;
    expect(body.data.total_mn_value).toBeCloseTo(3 * firoValue, 0);
  });

  it('get_detailed lists every coin with its market figures and prices', async () => {
    const { body } = await get('/public_api/get_detailed');
    expect(body.data).toHaveLength(36);
    const eth = body.data.find((r: any) => r.id === 'eth');
    expect(eth).toMatchObject({ dedicated_price_usd: 0.33, cloud_price_usd: null, collateral: 32 });
    expect(eth.income_usd.yearly).toBeCloseTo(income(32, eth.price_usd, eth.roi_pct).yearly, 8);
    // A campaign is told as one: the price paid now and the regular one it replaces.
    const campaigns = body.data.filter((r: any) => r.campaign);
    expect(campaigns.length).toBeGreaterThan(0);
    for (const r of campaigns) expect(r.dedicated_price_usd).toBeLessThan(r.regular_dedicated_price_usd);
    const plain = body.data.find((r: any) => !r.campaign && r.id !== 'eth');
    expect(plain.dedicated_price_usd).toBe(plain.regular_dedicated_price_usd);
  });

  it('get_deploy_info needs login and answers the deploy-info coin', async () => {
    expect((await get('/api/get_deploy_info?coin=dash')).status).toBe(401);
    const { status, body } = await get('/api/get_deploy_info?coin=zen42', token);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      id: 'zen42',
      ticker: 'ZEN',
      label: expect.any(String),
      collateral: 42,
      dedicated_price: expect.any(Number),
      cloud_price: expect.any(Number),
      cloud: expect.any(Boolean),
      campaign: false,
      campaign_prices: { dedicated_price: expect.any(Number), cloud_price: expect.any(Number) },
      maintenance: false,
      // The demo (simulator on) offers every coin.
      coming_soon: false,
      coming_soon_reason: null,
      monero: false,
      dip003: false,
      dip003_restrict: false,
      front_options: { validator_evm: false },
      family: 'zen',
      simulated: true,
    });
    expect((await get('/api/get_deploy_info?coin=eth', token)).body.data.front_options.validator_evm).toBe(true);
    expect((await get('/api/get_deploy_info?coin=nope', token)).status).toBe(404);
    expect((await get('/api/get_deploy_info?coin=pac', token)).status).toBe(404);
  });
});

describe('operator catalog commands', () => {
  it('change prices, campaign, maintenance and delisting, visible on the site after the cache', async () => {
    expect(await cli('catalog', 'set-price', 'firo', '--dedicated', '0.2', '--cloud', '0.05')).toBe(0);
    expect(await cli('catalog', 'maintenance', 'firo', 'on')).toBe(0);
    let firo = (await coinsShowing('firo in maintenance', (b) => b.data.firo.maintenance === true)).data.firo;
    expect(firo).toMatchObject({ host_price: 0.05, maintenance: true });
    expect(await cli('catalog', 'campaign', 'firo', 'on')).toBe(0);
    expect(await cli('catalog', 'maintenance', 'firo', 'off')).toBe(0);
    firo = (await coinsShowing('firo out of maintenance', (b) => b.data.firo.maintenance === false)).data.firo;
    expect(firo.maintenance).toBe(false);
    const info = (await get('/api/get_deploy_info?coin=firo', token)).body.data;
    expect(info).toMatchObject({ dedicated_price: 0.2, cloud_price: 0.05, campaign: true });
    expect(firo.host_price).toBe(Math.min(info.campaign_prices.dedicated_price, info.campaign_prices.cloud_price));

    expect(await cli('catalog', 'delist', 'xsn')).toBe(0);
    expect((await coinsShowing('xsn delisted', (b) => !b.order.includes('xsn'))).order).not.toContain('xsn');
    const actions = (await s.deps.db.selectFrom('operator_log').select('action').orderBy('id').execute()).map(
      (r) => r.action,
    );
    expect(actions).toEqual([
      'catalog set-price',
      'catalog maintenance',
      'catalog campaign',
      'catalog maintenance',
      'catalog delist',
    ]);
  });

  it('refuse bad commands and change nothing', async () => {
    const before = await snapshot(s.deps.db);
    for (const args of [
      ['catalog', 'set-price', 'firo'],
      ['catalog', 'set-price', 'firo', '--dedicated', '-1'],
      ['catalog', 'set-price', 'firo', '--dedicated', 'cheap'],
      ['catalog', 'set-price', 'firo', '--dedicated', '0.1234567'],
      ['catalog', 'campaign', 'firo', 'maybe'],
      ['catalog', 'maintenance', 'firo'],
      ['catalog', 'delist'],
      ['catalog', 'import', '/nonexistent/file.json'],
    ]) {
      expect(await cli(...args), args.join(' ')).toBe(2);
    }
    // A coin that is not there is no mistake in the command line: exit 1.
    expect(await cli('catalog', 'set-price', 'nocoin', '--dedicated', '0.1')).toBe(1);
    // Market refreshes may run meanwhile; compare what the commands could touch.
    const strip = (snap: string) =>
      JSON.stringify({ coins: JSON.parse(snap).coins, operator_log: JSON.parse(snap).operator_log });
    expect(strip(await snapshot(s.deps.db))).toBe(strip(before));
  });
});
