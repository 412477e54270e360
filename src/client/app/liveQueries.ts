import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';
import type { inferRouterInputs } from '@trpc/server';
import type { LiveEvent, LiveEventName, LiveEventPayload } from '../../shared/events';
import type { AppRouter } from '../../server/router';

type Record_ = AppRouter['_def']['record'];
type Inputs = inferRouterInputs<AppRouter>;

/** "router.procedure" for every query procedure of the app (mutations and subscriptions left out). */
export type QueryPath = {
  [R in keyof Record_ & string]: {
    [P in keyof Record_[R] & string]: Record_[R][P] extends { _def: { type: 'query' } } ? `${R}.${P}` : never;
  }[keyof Record_[R] & string];
}[keyof Record_ & string];

type InputOf<Q extends QueryPath> = Q extends `${infer R extends keyof Inputs & string}.${infer P}`
  ? P extends keyof Inputs[R]
    ? Inputs[R][P]
    : never
  : never;

/** One query to refetch: every cached call of a procedure, or only the call with this input. */
export type QueryTarget = { [Q in QueryPath]: { path: Q; input?: InputOf<Q> } }[QueryPath];

type Targets<N extends LiveEventName> = (payload: LiveEventPayload<N>) => QueryTarget[];

const all = <Q extends QueryPath>(path: Q): QueryTarget => ({ path }) as QueryTarget;

/**
 * Which queries each live event makes stale. One typed map, so a new event or a
 * renamed procedure fails the typecheck here instead of refetching the wrong thing.
 * Events handled in other ways refetch nothing: `restarted` reloads the page,
 * `new_notification` is a toast (the list refetches on the `refresh_notifications`
 * sent with it).
 */
export const LIVE_EVENT_QUERIES: { [N in LiveEventName]: Targets<N> } = {
  restarted: () => [],
  // Maintenance began or ended: the flag's two sources (the switch itself is written into the cache first).
  maintenance: () => [all('system.status'), all('auth.get_common_info')],
  new_notification: () => [],
  // The new balance is also written into the profile at once (live.tsx); the billing page refetches.
  update_balance: () => [all('billing.get_balance'), all('billing.get_transactions')],
  // Market refresh or catalogue change: the coin lists, the coin pages, the platform totals,
  // and the deploy page (a coin put in maintenance shows there at once).
  // The operator's banner is part of the profile.
  refresh_profile: () => [all('auth.get_common_info')],
  update_stats: () => [
    all('coins.get_coins'),
    all('coins.get_coin'),
    all('coins.get_stats'),
    all('coins.get_detailed'),
    all('deploy.get_deploy_info'),
  ],
  // Raised or cleared (here or in another tab): the navbar's list.
  refresh_notifications: () => [all('notifications.get_notifications')],
  // The build queue travels with the node list; the deploy page reads it alone.
  // Nodes come and go: the billing page's Total nodes and Monthly expenses too, and the top
  // bar's Hosted nodes (only for the owner: a platform-wide update_stats on every deploy
  // would make every open tab refetch the coin lists).
  refresh_queue: () => [
    all('nodes.get_masternodes'),
    all('deploy.get_building_servers'),
    all('billing.get_balance'),
    all('coins.get_stats'),
  ],
  // A new reward changes the node list (last reward) and the reward histories; a destroyed
  // validator's slashing-protection file appears under Removed nodes.
  refresh_masternodes: () => [
    all('nodes.get_masternodes'),
    all('nodes.get_masternode'),
    all('nodes.get_rewards'),
    all('billing.get_balance'),
    all('nodes.removed_validators'),
  ],
  refresh_masternode: (p) => [{ path: 'nodes.get_masternode', input: { masternode: p.mn_id } }],
  // The ledger moved: the profile's balance (top bar), the billing page, the affiliate
  // page (a referral bonus is a transfer), and the node list, whose monthly cost changes
  // when a node is destroyed for unpaid fees.
  refresh_transactions: () => [
    all('auth.get_common_info'),
    all('billing.get_balance'),
    all('billing.get_transactions'),
    all('referrals.get_referrals'),
    all('referrals.get_ref_infos'),
    all('nodes.get_masternodes'),
  ],
  server_created: () => [all('nodes.get_masternodes'), all('deploy.get_building_servers'), all('billing.get_balance')],
  started: (p) => [{ path: 'nodes.get_masternode', input: { masternode: p.mn_id } }],
  // The widget's thread (the console's inbox listens for it itself: console paths are three deep).
  support_chat: () => [all('support.thread')],
};

export function queriesFor(event: LiveEvent): QueryTarget[] {
  const targets = LIVE_EVENT_QUERIES[event.type] as (payload: unknown) => QueryTarget[];
  return targets(event.payload);
}

/**
 * The TanStack filter key of a target. tRPC's classic keys are
 * `[["nodes", "get_masternode"], { input, type: "query" }]`; a key without input
 * matches every call of the procedure (keys match by prefix).
 */
export function queryKeyOf(target: QueryTarget): readonly unknown[] {
  const path = target.path.split('.');
  return target.input === undefined ? [path] : [path, { input: target.input, type: 'query' }];
}

/**
 * Marks the matching queries stale and refetches the active ones, like TanStack's
 * `invalidateQueries`, and also reads again a query whose first fetch is still out.
 * TanStack joins an invalidation to a first fetch in flight instead of restarting it,
 * and that fetch's answer may have been read before the change the event announces
 * (a node page loading on a busy server kept "Syncing" after its "Start required").
 */
export function readAgain(queryClient: QueryClient, filters: InvalidateQueryFilters): void {
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll(filters)) {
    if (query.state.fetchStatus !== 'fetching' || query.state.data !== undefined) continue;
    const unsubscribe = cache.subscribe((e) => {
      if (e.query !== query || query.state.fetchStatus === 'fetching') return;
      if (e.type !== 'updated' && e.type !== 'removed') return;
      unsubscribe();
      if (e.type === 'updated') void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    });
  }
  void queryClient.invalidateQueries(filters);
}

/** How often, at most, a burst of live events reads the same queries again. */
export const LIVE_READ_WINDOW_MS = 1000;

/**
 * Reads the queries of live events again, coalesced. Events come in bursts: a deploy of
 * 21 Satori neurons raises a server_created, a refresh_queue and a ledger event per
 * node within seconds, and reading each event's queries at once made that one page ask
 * about 400 calls, two thirds of the account's call burst (guards/call-budget.ts), so
 * the customer's next pages were refused. The first event of a burst is read at once;
 * the ones after it wait for the end of the window and are read together, each query
 * once, until a window passes without events.
 */
export function coalescedReads(queryClient: QueryClient, windowMs = LIVE_READ_WINDOW_MS) {
  const pending = new Map<string, QueryTarget>();
  let window: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    window = null;
    if (pending.size === 0) return;
    for (const [key, target] of pending) {
      const filters = { queryKey: queryKeyOf(target) };
      // A read still out is not cancelled for a new one (TanStack's invalidation would,
      // and an answer slower than the window would then never land): the target waits
      // for the window after it, and is read again then, since the answer may predate the event.
      if (queryClient.isFetching(filters) > 0) continue;
      pending.delete(key);
      readAgain(queryClient, filters);
    }
    window = setTimeout(flush, windowMs);
  };
  return {
    read(targets: QueryTarget[]) {
      for (const target of targets) pending.set(JSON.stringify(queryKeyOf(target)), target);
      if (window === null) flush();
    },
    /** Stops the window (the component unmounted); what waits is dropped with the cache's owner. */
    stop() {
      if (window !== null) clearTimeout(window);
      window = null;
      pending.clear();
    },
  };
}
