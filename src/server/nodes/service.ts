import { apiStartCommand } from './api-start-command';
import { familyOf } from '../../shared/families';
import { microsToUsd } from '../../shared/money';
import { roiPercent, income } from '../../shared/roi';
import type { GetMasternodesOutput, MasternodeDetail, MasternodeListItem, QueueItem } from '../../shared/schemas/nodes';
import { coinDetails, listCoins } from '../coins/catalog';
import type { Context } from '../rpc/context';
import type { CoinRecord, Masternode, MarketQuote } from '../db/schema';
import { fail } from '../kernel/errors';
import { openMasternodeKey, openNodeSecrets, type NodeSecrets } from './node-secrets';
import { outputKind, withAddress, withMasternodeKey, withUnplacedWord } from './output-text';
import { productionProfile, type DaemonProfile } from '../fleet/profiles';
import { findUserNode, listUserNodes, startClaimOf } from './repository';
import { buildSetup } from './setup';
import { findSyncRow } from './fleet-queries';
import { syncProgressOf } from './sync-progress';
import { nodeHealth } from './node-health';
import { CHARGED, SETTING_UP } from '../../shared/lifecycle';
import { allQuotes, findQuote } from '../market/quotes';

type Ctx = Pick<Context, 'db' | 'config' | 'secrets' | 'log'> & { fleet: Pick<Context['fleet'], 'profiles'> };

/**
 * The Deployments panel lists what is deploying, plus what finished lately: a node stays
 * as "done" (a link to its config) for DONE_IN_QUEUE_MS after it started, a failed one
 * for FAILED_IN_QUEUE_MS, and the finished nodes of at most FINISHED_IN_QUEUE deploys show
 * (newest first; a deploy of many nodes shows them all).
 * Older ones are in the portfolio list. See src/server/nodes/README.md.
 */
export const DONE_IN_QUEUE_MS = 15 * 60_000;
export const FAILED_IN_QUEUE_MS = 60 * 60_000;
export const FINISHED_IN_QUEUE = 5;

/**
 * The node as its owner reads it, with its public address:port in its line. A real
 * daemon's placement holds the coin's fixed P2P port; a simulated one binds none, so it
 * is given the port the coin's network uses (its production profile's `p2p_port`) on the
 * address it was placed on: the masternode.conf line, the export and the start commands
 * read as they will on a real node, never with a placeholder.
 */
function withPublicAddress(n: Masternode, profiles: Record<string, DaemonProfile>): Masternode {
  if (n.p2p_port !== null) return n;
  const port = productionProfile(profiles, n.coin_id)?.profile.p2p_port ?? null;
  if (port === null) return n;
  return { ...n, p2p_port: port, output_text: n.output_text && withAddress(n.output_text, n.server_ip, port) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A simulated node holds no collateral and earns nothing: no worth, revenue or ROI to show. */
function economics(coin: CoinRecord, quote: MarketQuote | undefined, simulated: boolean) {
  const collateral = Number(coin.collateral);
  const roi = simulated ? null : roiPercent(coinDetails(coin).reward, collateral);
  const price = simulated ? undefined : quote?.price_usd;
  return {
    collateral,
    roi,
    worth: price === undefined ? ('--' as const) : collateral * price,
    revenue: price === undefined || roi === null ? ('--' as const) : income(collateral, price, roi).monthly,
  };
}

/**
 * `masternodeKey`: a classic node's sealed key, opened for its owner; their list, export
 * view and node page show the whole masternode.conf line, the stored text only its slot.
 */
function listItem(
  n: Masternode,
  coin: CoinRecord,
  quote: MarketQuote | undefined,
  logoBase: string,
  masternodeKey: string | null,
): MasternodeListItem {
  const e = economics(coin, quote, n.simulated === 1);
  return {
    mn_id: n.mn_id,
    alias: n.alias,
    currency: coin.id,
    currency_data: { id: coin.id, label: coin.label, ticker: coin.ticker },
    logo: `${logoBase}/${coin.id}.svg`,
    status: n.status,
    status_on_network: n.status_on_network,
    active_time: n.active_since === null ? null : Math.floor((Date.now() - n.active_since) / 1000),
    // A simulated node earns nothing: a payment its simulated chain made (before the monitor
    // ignored them) is not shown as a reward.
    last_paid: n.simulated === 1 ? null : iso(n.last_paid),
    worth: e.worth,
    revenue: e.revenue,
    create_date: new Date(n.created_at).toISOString(),
    output_text: withUnplacedWord(withMasternodeKey(coin.family, n.output_text ?? '', masternodeKey)),
    // The start command needs no secret: the others are not opened for lists.
    ...apiStartCommand(buildSetup({ node: n, coin, secrets: null }).start_cmd),
    payee: n.payee ?? '',
    front_options: { validator_evm: coin.validator_evm === 1 },
    dip003: coin.dip003 === 1,
    dip003_restrict: coin.dip003_restrict === 1,
    monero: coin.monero === 1,
    family: coin.family,
    simulated: n.simulated === 1,
  };
}

/** The node's queue item and, for a finished one, when it finished (null: still being set up). */
function queueItem(
  n: Masternode,
  coin: CoinRecord,
  now: number,
): { item: QueueItem; finishedAt: number | null } | null {
  let status: QueueItem['status'];
  let finishedAt: number | null = null;
  if (n.state === 'requested' || n.state === 'placing') status = 'assigning';
  else if (n.state === 'provisioning' || (n.state === 'live' && n.first_answer_at === null)) status = 'pending';
  else if (n.state === 'failed') {
    finishedAt = n.state_at;
    if (now - finishedAt >= FAILED_IN_QUEUE_MS) return null;
    status = 'failed';
  } else {
    finishedAt = n.first_answer_at ?? n.provisioned_at ?? n.created_at;
    if (now - finishedAt >= DONE_IN_QUEUE_MS) return null;
    status = 'done';
  }
  const item: QueueItem = {
    name: n.alias ?? n.mn_id,
    currency: coin.id,
    status,
    activated: n.state === 'live',
    link: `/dashboard/masternode/${n.mn_id}?tab=config`,
    mn_id: n.mn_id,
    currency_data: { id: coin.id, label: coin.label, ticker: coin.ticker },
    reason: status === 'failed' ? n.failed_reason : null,
  };
  return { item, finishedAt };
}

/** The user's build queue: what is being set up, then what finished lately (newest first). */
export function buildQueue(nodes: Masternode[], coinOf: Map<string, CoinRecord>, now = Date.now()): QueueItem[] {
  const queue: QueueItem[] = [];
  // Finished items are kept per deploy: one deploy of many nodes (Satori neurons) shows all
  // of them, so the deploy page's "Click your node in the right pane" always finds its node.
  const finished = new Map<string, { items: QueueItem[]; finishedAt: number }>();
  for (const n of nodes) {
    const coin = coinOf.get(n.coin_id);
    const q = coin ? queueItem(n, coin, now) : null;
    if (q && q.finishedAt === null) queue.push(q.item);
    else if (q && q.finishedAt !== null) {
      const key = n.deploy_id ?? n.mn_id;
      const group = finished.get(key) ?? { items: [], finishedAt: 0 };
      group.items.push(q.item);
      group.finishedAt = Math.max(group.finishedAt, q.finishedAt);
      finished.set(key, group);
    }
  }
  const groups = [...finished.values()].sort((a, b) => b.finishedAt - a.finishedAt);
  return [...queue, ...groups.slice(0, FINISHED_IN_QUEUE).flatMap((g) => g.items)];
}

export async function getMasternodes(ctx: Ctx, userId: number): Promise<GetMasternodesOutput> {
  const [nodes, coins, quotes] = await Promise.all([
    listUserNodes(ctx.db, userId),
    listCoins(ctx.db),
    allQuotes(ctx.db),
  ]);
  const coinOf = new Map(coins.map((c) => [c.id, c]));
  const quoteOf = new Map(quotes.map((q) => [q.coin_id, q]));
  const out: GetMasternodesOutput = {
    masternodes: [],
    queue: buildQueue(nodes, coinOf),
    total_worth: 0,
    monthly_cost: 0,
  };
  let dailyMicros = 0;
  for (const n of nodes) {
    const coin = coinOf.get(n.coin_id);
    if (!coin) continue;
    if (CHARGED.includes(n.state)) dailyMicros += n.hosting_price;
    if (SETTING_UP.includes(n.state)) continue; // shown in the queue only
    const item = listItem(
      withPublicAddress(n, ctx.fleet.profiles),
      coin,
      quoteOf.get(coin.id),
      ctx.config.coinLogoUrl,
      masternodeKeyFor(ctx, n, coin),
    );
    out.masternodes.push(item);
    if (typeof item.worth === 'number') out.total_worth += item.worth;
  }
  out.total_worth = Math.round(out.total_worth * 100) / 100;
  // Exact integer micro-dollars until the one conversion for display.
  out.monthly_cost = microsToUsd(dailyMicros * 30);
  return out;
}

/** A classic node's masternode key for its owner's views; logged and left out when it does not open. */
function masternodeKeyFor(ctx: Ctx, n: Masternode, coin: CoinRecord): string | null {
  if (outputKind(coin.family) !== 'masternode_conf') return null;
  try {
    return openMasternodeKey(ctx.secrets, n);
  } catch (err) {
    ctx.log.error('node secrets do not open', { node: n.mn_id, err: (err as Error).name });
    return null;
  }
}

/** The node's secrets for its owner's page; a value that does not open is logged and left out, never shown half. */
function nodeSecrets(ctx: Ctx, n: Masternode): NodeSecrets | null {
  try {
    return openNodeSecrets(ctx.secrets, n);
  } catch (err) {
    ctx.log.error('node secrets do not open', { node: n.mn_id, err: (err as Error).name });
    return null;
  }
}

export async function getMasternode(
  ctx: Ctx,
  userId: number,
  mnId: string,
): Promise<{ success: true; data: MasternodeDetail }> {
  const found = await findUserNode(ctx.db, userId, mnId);
  if (!found) fail('NOT_FOUND', 'Masternode not found.');
  const n = withPublicAddress(found, ctx.fleet.profiles);
  const coin = (await listCoins(ctx.db)).find((c) => c.id === n.coin_id);
  if (!coin) fail('NOT_FOUND', 'Masternode not found.');
  const quote = await findQuote(ctx.db, coin.id);
  const simulated = n.simulated === 1;
  const e = economics(coin, quote, simulated);
  const wallet = n.wallet_info ? (JSON.parse(n.wallet_info) as MasternodeDetail['wallet_info']) : null;
  const zen = familyOf(coin.family).nodeTracker;
  const masternodeKey = masternodeKeyFor(ctx, n, coin);
  return {
    success: true,
    data: {
      ...listItem(n, coin, quote, ctx.config.coinLogoUrl, masternodeKey),
      status_text: n.status_text,
      collateral: e.collateral,
      roi: e.roi,
      hosting_price: microsToUsd(n.hosting_price),
      package: n.package,
      // A simulated node runs on no address a customer could reach: show none.
      server_ip: simulated ? null : n.server_ip,
      server_ip6: simulated ? null : n.server_ip6,
      reward_freq: simulated || n.reward_freq_s === null ? null : Math.round((n.reward_freq_s / 3600) * 100) / 100,
      zen: zen
        ? { ip4: simulated ? null : n.server_ip, ip6: simulated ? null : n.server_ip6, id: n.mn_id, fqdn: null }
        : null,
      wallet_info: wallet,
      // Only a running daemon's progress: a node that stopped or failed shows its status instead.
      sync: n.state === 'live' ? syncProgressOf(await findSyncRow(ctx.db, n.id)) : null,
      activity: n.activity ? (JSON.parse(n.activity) as MasternodeDetail['activity']) : null,
      file_name: `${coin.id}.conf`,
      folder_name: `.${coin.id}`,
      problem: n.last_error,
      state: n.state,
      // Only the page's setup: its commands keep the slots the page's fields fill, which the
      // API's start_cmd (from listItem) never carries.
      setup: buildSetup({
        node: n,
        coin,
        secrets: nodeSecrets(ctx, n),
        masternodeKey,
        startClaimAt: await startClaimOf(ctx.db, n.id),
        explorer: coinDetails(coin).explorer ?? null,
      }).setup,
      ...(await nodeHealth(ctx.db, n)),
    },
  };
}
