import { formatCoins } from '../../shared/coin-amount';
import { nodeRewardAtomic } from '../../shared/roi';
import { badNetworkStates, type BadNetworkState } from '../../shared/notification-kinds';
import { coinDetails, findCoin } from '../coins/catalog';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { findNodeAlerts, saveNodeAlerts } from './alert-queries';
import { dampen, DEFAULT_PAIR_WINDOW_MS, initialDamping, type DampingState } from './damping';
import { raise } from './raise';

/** What one monitor check saw of a node (the fields of its new observation that alerts read). */
export type CheckSeen = {
  status: string;
  answered: boolean;
  status_on_network: string | null;
  last_paid_height: number | null | undefined;
  /** Not synced and no new block for SYNC_STALL_MINUTES; null when the check could not tell (no answer). */
  sync_stalled?: boolean | null;
};

/**
 * A failed check: the daemon gave no usable answer, and either the engine lost or stopped
 * it (`error`), it is past its start-up grace (`unknown`), or it has answered before (a
 * node that was up and went silent is down, even if its engine process is young: the
 * simulator or a host restarted). A new node still starting is not failing.
 */
function failedCheck(node: Masternode, seen: CheckSeen): boolean {
  if (seen.answered) return false;
  return seen.status === 'error' || seen.status === 'unknown' || node.first_answer_at !== null;
}

/**
 * Action kinds by the status or network status that asks for them. A node that has never
 * run needs its first start, whatever word its daemon uses for it: "a new start" is only
 * true of one that ran before.
 */
function actionOf(
  node: Masternode,
  seen: CheckSeen,
): 'start_required' | 'new_start_required' | 'update_required' | null {
  const net = seen.status_on_network?.toUpperCase() ?? '';
  if (net.includes('UPDATE_REQUIRED')) return 'update_required';
  if (net.includes('NEW_START_REQUIRED')) return node.started_at === null ? 'start_required' : 'new_start_required';
  if (seen.status === 'start required') return 'start_required';
  return null;
}

function badNetworkOf(net: string | null): BadNetworkState | null {
  const up = net?.toUpperCase() ?? '';
  return badNetworkStates.find((s) => up === s || up.startsWith(`${s} `) || up.startsWith(`${s}:`)) ?? null;
}

/**
 * The alerts of one check, in the monitor's transaction: flap-damped down/up, a change
 * into a bad network state or into an action state, and a new reward. The node's alert
 * state is saved with what was raised, so a restart neither loses nor repeats one. A muted
 * node keeps its state up to date (no burst of stale alerts when unmuted) but raises nothing.
 * Returns whether anything was raised (the caller then pokes the hub and the job runner).
 */
export async function alertsOfCheck(
  trx: DB,
  node: Masternode,
  seen: CheckSeen,
  now: number,
  rule: { downAfterMs: number; pairWindowMs?: number },
): Promise<boolean> {
  const row = await findNodeAlerts(trx, node.id);
  const before: DampingState = row
    ? {
        failingSince: row.failing_since,
        downRaised: row.down_raised !== 0,
        lastDownAt: row.last_down_at,
        streakCounted: row.streak_counted === 1,
        flaps: row.flaps,
      }
    : initialDamping;
  const muted = row?.muted === 1;
  type Ref = { mn_id: string; coin: string; alias: string | null };
  const raised: Array<(ref: Ref) => Promise<void>> = [];

  const failing = failedCheck(node, seen);
  let d = dampen(before, failing, now, {
    downAfterMs: rule.downAfterMs,
    pairWindowMs: rule.pairWindowMs ?? DEFAULT_PAIR_WINDOW_MS,
  });
  // A down nobody is told of (muted) does not open a 30-minute window: else the first real
  // outage after unmuting would be held as a "flap" of it. It counts as one in the next told down.
  if (d.alert?.kind === 'node_down' && muted)
    d = { ...d, state: { ...d.state, lastDownAt: before.lastDownAt, flaps: d.alert.flaps + 1 } };
  // A down reached while muted is remembered as untold (2), so unmuting later owes no "back up".
  const untoldDown = d.alert?.kind === 'node_down' ? muted : row?.down_raised === 2;
  if (d.alert?.kind === 'node_down')
    raised.push((ref) =>
      raise(trx, node.user_id, 'node_down', { ...ref, flaps: (d.alert as { flaps: number }).flaps }),
    );
  if (d.alert?.kind === 'node_up' && !untoldDown) raised.push((ref) => raise(trx, node.user_id, 'node_up', ref));

  // Network and action states: once per change into one. A failing check says nothing of
  // them (the daemon did not answer), so they are kept as they were through an outage.
  let networkAlerted = row?.network_alerted ?? null;
  let actionAlerted = row?.action_alerted ?? null;
  if (!failing) {
    const bad = badNetworkOf(seen.status_on_network);
    if (bad && bad !== networkAlerted)
      raised.push((ref) => raise(trx, node.user_id, 'network_status', { ...ref, status: bad }));
    // Before the first network check there is no network status: nothing to compare yet.
    if (seen.status_on_network !== null) networkAlerted = bad;
    const action = actionOf(node, seen);
    if (action && action !== actionAlerted) raised.push((ref) => raise(trx, node.user_id, action, ref));
    // Remembered until the node runs (or asks for another action): a node that restarts
    // and syncs again while it still waits for its start is not told twice.
    if (action || seen.status === 'running') actionAlerted = action;
  }

  // Rewards: once per new last-paid height. The first one the platform sees is the first reward.
  let rewardHeight = row?.reward_height ?? null;
  const paid = seen.last_paid_height;
  if (paid !== null && paid !== undefined && (rewardHeight === null || paid > rewardHeight)) {
    const first = rewardHeight === null && node.last_paid_height === null;
    // A node whose payment was seen before alerts existed is not "first": start counting from it.
    const known = rewardHeight === null && node.last_paid_height !== null && paid === node.last_paid_height;
    if (!known) {
      raised.push(async (ref) => {
        const amount = await rewardAmount(trx, node.coin_id);
        await (first
          ? raise(trx, node.user_id, 'first_reward', { ...ref, amount })
          : raise(trx, node.user_id, 'reward', { ...ref, amount }));
      });
    }
    rewardHeight = paid;
  }

  // Sync stall: once per stall, and "moving again" when blocks rise after a told one.
  let stallRaised = row?.sync_stall_raised ?? 0;
  if (seen.sync_stalled === true && stallRaised === 0) {
    raised.push((ref) => raise(trx, node.user_id, 'sync_stalled', ref));
    stallRaised = 1;
  } else if (seen.sync_stalled === false && stallRaised === 1) {
    raised.push((ref) => raise(trx, node.user_id, 'sync_resumed', ref));
    stallRaised = 0;
  }

  // Running: told once per node, the first time a check finds it running (the deploy's
  // own notice says "deployed and syncing": it is not running yet then).
  let runningRaised = row?.running_raised ?? 0;
  if (seen.status === 'running' && runningRaised === 0) {
    raised.push((ref) => raise(trx, node.user_id, 'node_running', ref));
    runningRaised = 1;
  }

  const next = {
    failing_since: d.state.failingSince,
    down_raised: d.state.downRaised ? (untoldDown ? 2 : 1) : 0,
    last_down_at: d.state.lastDownAt,
    streak_counted: d.state.streakCounted ? 1 : 0,
    flaps: d.state.flaps,
    network_alerted: networkAlerted,
    action_alerted: actionAlerted,
    reward_height: rewardHeight,
    sync_stall_raised: stallRaised,
    running_raised: runningRaised,
  };
  // Most checks change nothing here: no write for them (thousands of nodes, one SQLite writer).
  const changed = !row || (Object.keys(next) as (keyof typeof next)[]).some((k) => row[k] !== next[k]);
  if (changed) await saveNodeAlerts(trx, node.id, next);
  if (muted || raised.length === 0) return false;
  // The coin's label, as node_deployed names it ("Dash node mn-…").
  const coin = await findCoin(trx, node.coin_id);
  const ref = { mn_id: node.mn_id, coin: coin?.label ?? node.coin_id, alias: node.alias };
  for (const r of raised) await r(ref);
  return raised.length > 0;
}

/** "1.35 DASH": the node's share of a block's reward, from the catalog (the daemon reports heights, not amounts). */
async function rewardAmount(db: DB, coinId: string): Promise<string> {
  const coin = await findCoin(db, coinId);
  if (!coin) return 'a masternode reward';
  return `${formatCoins(BigInt(nodeRewardAtomic(coinDetails(coin).reward)), 8)} ${coin.ticker}`;
}
