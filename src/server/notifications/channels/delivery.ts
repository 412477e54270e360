import type { AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { AppDeps } from '../../rpc/context';
import type { JobRunner } from '../../jobs/runner';
import { summarisedForChannels } from '../alert-queries';
import { findNotification } from '../queries';
import { channelSummary } from '../quiet';
import { afterRaise, raise } from '../raise';
import { adapters, channelEnv, channelLabel } from './adapters';
import { disableFailing, findChannel, recordDelivered, recordFailure } from './queries';
import { openChannelSecret } from './seal';
import type { AlertMessage } from './types';

/** Tries per delivery (the runner's retries, backoff doubling from ALERT_RETRY_SECONDS). */
export const DELIVERY_ATTEMPTS = 4;

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'hub' | 'mail' | 'log'>;

/** The alert a notification row becomes on every channel. */
export function alertOf(
  n: { id: number; kind: string; params: string; message: string; link: string; created_at: number },
  publicUrl: string,
): AlertMessage {
  let node: string | null = null;
  try {
    const p = JSON.parse(n.params) as { mn_id?: unknown };
    if (typeof p.mn_id === 'string') node = p.mn_id;
  } catch {
    // params are ours and JSON; a node is optional anyway
  }
  return {
    id: n.id,
    kind: n.kind,
    message: n.message,
    link: `${publicUrl}${n.link}`,
    node,
    time: new Date(n.created_at).toISOString(),
  };
}

/**
 * Delivers one notification to one channel (job `notify.channel`, queued by `raise`).
 * A failed attempt counts against the channel and is retried by the runner; at
 * ALERT_CHANNEL_MAX_FAILURES failures in a row the channel is turned off and its owner
 * told in-app (and by mail), and this delivery stops. A channel turned off or deleted
 * meanwhile gets nothing.
 */
export async function deliverToChannel(
  deps: Deps,
  notificationId: number,
  channelId: number,
  signal: AbortSignal,
): Promise<Outcome> {
  const n = await findNotification(deps.db, notificationId);
  if (!n) return 'skipped';
  return deliver(deps, channelId, n.user_id, alertOf(n, deps.config.publicUrl), signal);
}

/** Delivers the quiet-hours summary of notifications `firstId`..`lastId` to one channel (job `notify.channel_summary`). */
export async function deliverSummaryToChannel(
  deps: Deps,
  channelId: number,
  firstId: number,
  lastId: number,
  signal: AbortSignal,
): Promise<Outcome> {
  const channel = await findChannel(deps.db, channelId);
  if (!channel) return 'skipped';
  const held = await summarisedForChannels(deps.db, channel.user_id, firstId, lastId);
  if (!held.length) return 'skipped';
  return deliver(deps, channelId, channel.user_id, channelSummary(held, deps.config.publicUrl, Date.now()), signal);
}

type Outcome = 'delivered' | 'skipped' | 'channel disabled';

async function deliver(
  deps: Deps,
  channelId: number,
  userId: number,
  alert: AlertMessage,
  signal: AbortSignal,
): Promise<Outcome> {
  const { db } = deps;
  const channel = await findChannel(db, channelId);
  if (!channel || channel.enabled !== 1 || channel.user_id !== userId) return 'skipped';
  const opened = {
    type: channel.type as AlertChannelType,
    target: channel.target,
    secret: openChannelSecret(deps.secrets, channel),
  };
  try {
    await adapters[opened.type](opened, alert, channelEnv(deps.config, signal));
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const disabled = await db.transaction().execute(async (trx) => {
      const row = await recordFailure(trx, channelId, error, Date.now());
      if (!row || row.failures < deps.config.alertChannelMaxFailures) return false;
      if (!(await disableFailing(trx, channelId, `${row.failures} failed deliveries in a row`, Date.now())))
        return false;
      await raise(trx, row.user_id, 'alert_channel_disabled', {
        channel: channelLabel(row),
        failures: row.failures,
        error,
      });
      return true;
    });
    if (disabled) {
      afterRaise(deps);
      deps.log.warn('alert channel turned off after failures', { channel_id: channelId });
      return 'channel disabled';
    }
    throw err;
  }
  await recordDelivered(db, channelId, Date.now());
  return 'delivered';
}

/** Registers the `notify.channel` and `notify.channel_summary` handlers on the server's job runner. */
export function handleChannelDelivery(jobs: JobRunner, deps: Deps): void {
  jobs.handle('notify.channel', {
    deadlineMs: 15_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    backoffMs: deps.config.alertRetryMs,
    run: async (p, { signal }) => {
      const outcome = await deliverToChannel(deps, p.notification_id, p.channel_id, signal);
      if (outcome !== 'delivered')
        deps.log.info(`alert delivery ${outcome}`, { notification_id: p.notification_id, channel_id: p.channel_id });
    },
  });
  jobs.handle('notify.channel_summary', {
    deadlineMs: 15_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    backoffMs: deps.config.alertRetryMs,
    run: async (p, { signal }) => {
      const outcome = await deliverSummaryToChannel(deps, p.channel_id, p.first_id, p.last_id, signal);
      if (outcome !== 'delivered')
        deps.log.info(`quiet-hours summary delivery ${outcome}`, { channel_id: p.channel_id, last_id: p.last_id });
    },
  });
}
