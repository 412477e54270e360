import type { AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { AppDeps } from '../../context';
import type { JobRunner } from '../../jobs/runner';
import { findNotification } from '../queries';
import { afterRaise, raise } from '../raise';
import { adapters, channelEnv, channelLabel } from './adapters';
import { disableFailing, findChannel, recordDelivered, recordFailure } from './queries';
import { openChannelSecret } from './seal';
import type { AlertMessage } from './types';

/** Tries per delivery (the runner's retries, backoff doubling from ALERT_RETRY_SECONDS). */
export const DELIVERY_ATTEMPTS = 4;

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'hub' | 'mail' | 'log'>;

/** The alert a notification row becomes on every channel. */
export function alertOf(n: { id: number; kind: string; params: string; message: string; link: string; created_at: number }, publicUrl: string): AlertMessage {
  let node: string | null = null;
  try {
    const p = JSON.parse(n.params) as { mn_id?: unknown };
    if (typeof p.mn_id === 'string') node = p.mn_id;
  } catch {
    // params are ours and JSON; a node is optional anyway
  }
  return { id: n.id, kind: n.kind, message: n.message, link: `${publicUrl}${n.link}`, node, time: new Date(n.created_at).toISOString() };
}

/**
 * Delivers one notification to one channel (job `notify.channel`, queued by `raise`).
 * A failed attempt counts against the channel and is retried by the runner; at
 * ALERT_CHANNEL_MAX_FAILURES failures in a row the channel is turned off and its owner
 * told in-app (and by mail), and this delivery stops. A channel turned off or deleted
 * meanwhile gets nothing.
 */
export async function deliverToChannel(deps: Deps, notificationId: number, channelId: number, signal: AbortSignal): Promise<'delivered' | 'skipped' | 'channel disabled'> {
  const { db } = deps;
  const channel = await findChannel(db, channelId);
  const n = await findNotification(db, notificationId);
  if (!channel || !n || channel.enabled !== 1 || channel.user_id !== n.user_id) return 'skipped';
  const opened = { type: channel.type as AlertChannelType, target: channel.target, secret: openChannelSecret(deps.secrets, channel) };
  try {
    await adapters[opened.type](opened, alertOf(n, deps.config.publicUrl), channelEnv(deps.config, signal));
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const disabled = await db.transaction().execute(async (trx) => {
      const row = await recordFailure(trx, channelId, error, Date.now());
      if (!row || row.failures < deps.config.alertChannelMaxFailures) return false;
      if (!(await disableFailing(trx, channelId, `${row.failures} failed deliveries in a row`, Date.now()))) return false;
      await raise(trx, row.user_id, 'alert_channel_disabled', { channel: channelLabel(row), failures: row.failures, error });
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

/** Registers the `notify.channel` handler on the server's job runner. */
export function handleChannelDelivery(jobs: JobRunner, deps: Deps): void {
  jobs.handle('notify.channel', {
    deadlineMs: 15_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    backoffMs: deps.config.alertRetryMs,
    run: async (p, { signal }) => {
      const outcome = await deliverToChannel(deps, p.notification_id, p.channel_id, signal);
      if (outcome !== 'delivered') deps.log.info(`alert delivery ${outcome}`, { notification_id: p.notification_id, channel_id: p.channel_id });
    },
  });
}

