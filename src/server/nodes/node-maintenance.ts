import { NODE_LOG_LINES, RESTART_INTERVAL_MS, restartTooSoon } from '../../shared/node-maintenance';
import type { Context } from '../rpc/context';
import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import { NOT_FOUND } from './actions';
import { maskLog } from './log-mask';
import { secretValues } from './node-secrets';
import { findUserNode } from './repository';
import { claimRestart, insertNodeEvent } from './uptime-events-queries';

/** The owner's Restart button and log panel on the node page. */

type Ctx = Pick<Context, 'db' | 'hub' | 'fleet' | 'log' | 'secrets'>;

export const NOT_PLACED = 'This node is not running on a server yet: it can be restarted, and has a log, once it is.';
export const LOG_UNREADABLE = "This node's log cannot be read right now. Please try again in a minute.";
export const RESTART_ASKED = 'The node is being restarted.';

async function ownLiveNode(ctx: Ctx, userId: number, mnId: string): Promise<Masternode> {
  const n = await findUserNode(ctx.db, userId, mnId);
  if (!n) fail('NOT_FOUND', NOT_FOUND);
  if (n.state !== 'live') fail('CONFLICT', NOT_PLACED);
  return n;
}

/**
 * Asks the control loop to restart the node's daemon, at most once per
 * RESTART_INTERVAL_MS per node (operator restarts count too): the claim is one conditional
 * update, so of simultaneous asks one restarts and the others are told when they may.
 * The ask and its outcome (reconcile.ts) are the node's events.
 */
export async function restartOwnNode(ctx: Ctx, userId: number, mnId: string) {
  const n = await ownLiveNode(ctx, userId, mnId);
  const now = Date.now();
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimRestart(trx, n.id, now, now - RESTART_INTERVAL_MS))) return false;
    await insertNodeEvent(trx, n.id, 'restart_requested', now, { by: 'owner' });
    await insertEvent(trx, n.user_id, 'refresh_masternode', { mn_id: n.mn_id });
    return true;
  });
  if (!claimed) {
    const last = (await findUserNode(ctx.db, userId, mnId))?.restart_requested_at ?? now;
    const minutes = Math.max(1, Math.ceil((last + RESTART_INTERVAL_MS - now) / 60_000));
    fail('TOO_MANY_REQUESTS', restartTooSoon(minutes));
  }
  void ctx.hub.poke();
  void ctx.fleet.reconcile().catch((err) => ctx.log.warn('reconcile after restart failed', { node: n.mn_id, err }));
  ctx.log.info('node restart asked by its owner', { node: n.mn_id, user_id: userId });
  return { success: true as const, message: RESTART_ASKED };
}

/**
 * The daemon's last NODE_LOG_LINES lines with every secret masked (log-mask.ts). A node
 * whose secrets do not open shows no log: what it would hide is not known.
 */
export async function ownNodeLog(ctx: Ctx, userId: number, mnId: string) {
  const n = await ownLiveNode(ctx, userId, mnId);
  let secrets: string[];
  try {
    secrets = secretValues(ctx.secrets, n);
  } catch (err) {
    ctx.log.error('node secrets do not open: log not shown', { node: n.mn_id, err: (err as Error).name });
    fail('SERVICE_UNAVAILABLE', LOG_UNREADABLE);
  }
  let text: string | null;
  try {
    text = await ctx.fleet.daemonLog(n, NODE_LOG_LINES);
  } catch (err) {
    ctx.log.warn('node log not read', { node: n.mn_id, error: (err as Error).message });
    fail('SERVICE_UNAVAILABLE', LOG_UNREADABLE);
  }
  if (text === null) fail('CONFLICT', NOT_PLACED);
  const masked = maskLog(text, [n.rpc_password, ...secrets]);
  const lines = masked === '' ? [] : masked.split('\n').slice(-NODE_LOG_LINES);
  return { success: true as const, lines };
}
