import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveEventNames, type LiveEvent } from '../../shared/events';
import { coalescedReads, LIVE_EVENT_QUERIES, queriesFor, queryKeyOf, readAgain } from './liveQueries';
import { trpc } from './trpc';

// The queries a signed-in user may have in the cache, under the keys tRPC's own hooks use.
const cached = {
  coins: getQueryKey(trpc.coins.get_coins, undefined, 'query'),
  coin: getQueryKey(trpc.coins.get_coin, { coin: 'dash' }, 'query'),
  stats: getQueryKey(trpc.coins.get_stats, undefined, 'query'),
  detailed: getQueryKey(trpc.coins.get_detailed, undefined, 'query'),
  nodes: getQueryKey(trpc.nodes.get_masternodes, undefined, 'query'),
  nodeA: getQueryKey(trpc.nodes.get_masternode, { masternode: 'dash-aaaaaaaaaa' }, 'query'),
  nodeB: getQueryKey(trpc.nodes.get_masternode, { masternode: 'dash-bbbbbbbbbb' }, 'query'),
  rewards: getQueryKey(trpc.nodes.get_rewards, {}, 'query'),
  nodeRewards: getQueryKey(trpc.nodes.get_rewards, { masternode: 'dash-aaaaaaaaaa' }, 'query'),
  info: getQueryKey(trpc.auth.get_common_info, undefined, 'query'),
  tfa: getQueryKey(trpc.auth.get_tfa, undefined, 'query'),
  status: getQueryKey(trpc.system.status, undefined, 'query'),
  queue: getQueryKey(trpc.deploy.get_building_servers, undefined, 'query'),
  deployInfo: getQueryKey(trpc.deploy.get_deploy_info, { coin: 'dash' }, 'query'),
  notifications: getQueryKey(trpc.notifications.get_notifications, undefined, 'query'),
  balance: getQueryKey(trpc.billing.get_balance, undefined, 'query'),
  history: getQueryKey(trpc.billing.get_transactions, { page: 2, per_page: 5 }, 'query'),
  referrals: getQueryKey(trpc.referrals.get_referrals, { page: 1, per_page: 10 }, 'query'),
  refInfos: getQueryKey(trpc.referrals.get_ref_infos, undefined, 'query'),
};
type Name = keyof typeof cached;

/** Runs the event's invalidation on a real QueryClient holding every query above; returns those made stale. */
async function staleAfter(event: LiveEvent): Promise<Name[]> {
  const client = new QueryClient();
  for (const key of Object.values(cached)) client.setQueryData(key, { seeded: true });
  for (const target of queriesFor(event)) await client.invalidateQueries({ queryKey: queryKeyOf(target) });
  return (Object.keys(cached) as Name[]).filter((name) => client.getQueryState(cached[name])?.isInvalidated).sort();
}

describe('live event → queries map', () => {
  it('update_stats refetches the coin lists, coin pages, platform totals and the deploy page, nothing private', async () => {
    expect(await staleAfter({ type: 'update_stats', payload: {} })).toEqual([
      'coin',
      'coins',
      'deployInfo',
      'detailed',
      'stats',
    ]);
  });

  it("refresh_masternodes refetches the node list, node pages, rewards and the billing page's node totals only", async () => {
    expect(await staleAfter({ type: 'refresh_masternodes', payload: {} })).toEqual([
      'balance',
      'nodeA',
      'nodeB',
      'nodeRewards',
      'nodes',
      'rewards',
    ]);
  });

  it('refresh_masternode refetches only that node', async () => {
    expect(await staleAfter({ type: 'refresh_masternode', payload: { mn_id: 'dash-bbbbbbbbbb' } })).toEqual(['nodeB']);
    expect(await staleAfter({ type: 'started', payload: { mn_id: 'dash-aaaaaaaaaa' } })).toEqual(['nodeA']);
  });

  it("refresh_queue refetches the node list (which carries the queue), the deploy page's queue, the node totals and the top bar's", async () => {
    expect(await staleAfter({ type: 'refresh_queue', payload: {} })).toEqual(['balance', 'nodes', 'queue', 'stats']);
  });

  it("server_created refetches the node list, the deploy page's queue and the node totals", async () => {
    expect(await staleAfter({ type: 'server_created', payload: { server_id: 'dash-aaaaaaaaaa' } })).toEqual([
      'balance',
      'nodes',
      'queue',
    ]);
  });

  it('refresh_notifications refetches the navbar list only', async () => {
    expect(await staleAfter({ type: 'refresh_notifications', payload: {} })).toEqual(['notifications']);
  });

  it('refresh_transactions refetches the profile with its balance, the billing and affiliate pages (every page of their histories) and the node list', async () => {
    expect(await staleAfter({ type: 'refresh_transactions', payload: {} })).toEqual([
      'balance',
      'history',
      'info',
      'nodes',
      'refInfos',
      'referrals',
    ]);
  });

  it('update_balance refetches the billing page (the profile is patched in place)', async () => {
    expect(await staleAfter({ type: 'update_balance', payload: { balance: 1 } })).toEqual(['balance', 'history']);
  });

  it('events handled otherwise refetch nothing', async () => {
    expect(await staleAfter({ type: 'restarted', payload: {} })).toEqual([]);
    expect(await staleAfter({ type: 'new_notification', payload: { message: 'hi' } })).toEqual([]);
  });

  it('no event refetches everything, and every event is in the map', async () => {
    expect(Object.keys(LIVE_EVENT_QUERIES).sort()).toEqual([...liveEventNames].sort());
    for (const type of liveEventNames) {
      const payload =
        type === 'refresh_masternode' || type === 'started'
          ? { mn_id: 'x' }
          : type === 'server_created'
            ? { server_id: 'x' }
            : type === 'update_balance'
              ? { balance: 0 }
              : type === 'new_notification'
                ? { message: 'x' }
                : type === 'maintenance'
                  ? { on: false }
                  : {};
      const stale = await staleAfter({ type, payload } as LiveEvent);
      expect(stale.length, type).toBeLessThan(Object.keys(cached).length);
      // Only the maintenance switch concerns the status call (it carries the flag).
      if (type === 'maintenance') expect(stale, type).toContain('status');
      else expect(stale, type).not.toContain('status');
      expect(stale, type).not.toContain('tfa');
    }
  });
});

describe('readAgain', () => {
  /** A page showing a node: its query's fetches answer when the test says. */
  function slowQuery() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const answers: Array<(v: string) => void> = [];
    const observer = new QueryObserver(client, {
      queryKey: ['nodes', 'get_masternode'],
      queryFn: () => new Promise<string>((resolve) => answers.push(resolve)),
    });
    const stop = observer.subscribe(() => {});
    const data = () => client.getQueryData(['nodes', 'get_masternode']);
    return { client, answers, data, stop };
  }

  it('reads again a query whose first fetch was out when the event came', async () => {
    const { client, answers, data, stop } = slowQuery();
    expect(answers).toHaveLength(1);
    readAgain(client, { queryKey: ['nodes'] });
    answers[0]('syncing'); // read before the change
    await expect.poll(() => answers.length).toBe(2);
    answers[1]('start required');
    await expect.poll(data).toBe('start required');
    stop();
  });

  it('is needed: invalidateQueries alone joins the first fetch and never reads again', async () => {
    const { client, answers, data, stop } = slowQuery();
    void client.invalidateQueries({ queryKey: ['nodes'] });
    answers[0]('syncing');
    await expect.poll(data).toBe('syncing');
    // Whatever else settles first: still one fetch.
    await client.getQueryCache().find({ queryKey: ['nodes', 'get_masternode'] })!.promise;
    expect(answers).toHaveLength(1);
    stop();
  });
});

describe('coalescedReads', () => {
  afterEach(() => vi.useRealTimers());

  /** A page with the node list and the balance on screen: counts each query's fetches. */
  function page() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetches = { nodes: 0, balance: 0 };
    const observe = (name: keyof typeof fetches) =>
      new QueryObserver(client, {
        queryKey: name === 'nodes' ? cached.nodes : cached.balance,
        queryFn: () => ++fetches[name],
      }).subscribe(() => {});
    const stops = [observe('nodes'), observe('balance')];
    return { client, fetches, stop: () => stops.forEach((s) => s()) };
  }
  const settled = (client: QueryClient) => expect.poll(() => client.isFetching()).toBe(0);

  it('reads the first event at once, and a burst after it once per window, each query once', async () => {
    vi.useFakeTimers();
    const { client, fetches, stop } = page();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual({ nodes: 1, balance: 1 });
    const reads = coalescedReads(client, 1000);

    reads.read(queriesFor({ type: 'server_created', payload: { server_id: 'satori-1' } }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual({ nodes: 2, balance: 2 });

    // 21 neurons' events in the same second: nothing more until the window ends...
    for (let i = 0; i < 21; i++) {
      reads.read(queriesFor({ type: 'server_created', payload: { server_id: `satori-${i}` } }));
      reads.read(queriesFor({ type: 'refresh_queue', payload: {} }));
      reads.read(queriesFor({ type: 'refresh_transactions', payload: {} }));
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(fetches).toEqual({ nodes: 2, balance: 2 });
    // ...then one read of each.
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches).toEqual({ nodes: 3, balance: 3 });

    // A quiet window closes the burst: the next event is read at once again.
    await vi.advanceTimersByTimeAsync(1000);
    reads.read(queriesFor({ type: 'refresh_queue', payload: {} }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual({ nodes: 4, balance: 4 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetches).toEqual({ nodes: 4, balance: 4 });
    reads.stop();
    stop();
    vi.useRealTimers();
    await settled(client);
  });

  it('reads only what the burst named', async () => {
    vi.useFakeTimers();
    const { client, fetches, stop } = page();
    await vi.advanceTimersByTimeAsync(0);
    const reads = coalescedReads(client, 1000);
    reads.read(queriesFor({ type: 'update_balance', payload: { balance: 1 } }));
    reads.read(queriesFor({ type: 'refresh_notifications', payload: {} }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetches).toEqual({ nodes: 1, balance: 2 });
    reads.stop();
    stop();
  });

  it('never cancels a read still out: a slow answer lands, then the query is read once more', async () => {
    vi.useFakeTimers();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const answers: Array<(v: string) => void> = [];
    const stop = new QueryObserver(client, {
      queryKey: cached.nodes,
      queryFn: ({ signal }) =>
        new Promise<string>((resolve, reject) => {
          answers.push(resolve);
          signal.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
    }).subscribe(() => {});
    answers[0]('first');
    await vi.advanceTimersByTimeAsync(0);
    const reads = coalescedReads(client, 1000);
    reads.read(queriesFor({ type: 'refresh_queue', payload: {} }));
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveLength(2); // read at once; this answer is slow
    // Events for three seconds while it is out: nothing cancels it, nothing more is asked.
    for (let s = 0; s < 3; s++) {
      reads.read(queriesFor({ type: 'refresh_queue', payload: {} }));
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(answers).toHaveLength(2);
    answers[1]('slow');
    await vi.advanceTimersByTimeAsync(0);
    expect(client.getQueryData(cached.nodes)).toBe('slow');
    // The events came after that read went out: one more read, at the next window.
    await vi.advanceTimersByTimeAsync(1000);
    expect(answers).toHaveLength(3);
    answers[2]('fresh');
    await vi.advanceTimersByTimeAsync(0);
    expect(client.getQueryData(cached.nodes)).toBe('fresh');
    await vi.advanceTimersByTimeAsync(5000);
    expect(answers).toHaveLength(3);
    reads.stop();
    stop();
  });
});
