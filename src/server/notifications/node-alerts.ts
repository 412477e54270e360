import { nodeLink } from '../../shared/notification-kinds';
import type { DB } from '../db/open';
import { insertEvent } from '../events/outbox';
import { clearNotificationsLinkingTo } from './queries';

/** A node's alert state, for nodes/ (the owner mutes a node's alerts; SQL stays in alert-queries.ts). */
export { setNodeMuted } from './alert-queries';

/**
 * A node is destroyed: its open notifications ("needs to be started", "is down"...) point
 * at a page with nothing left to act on, so they leave the bell, in the destroy's
 * transaction, and the owner's open tabs refetch it. Notifications about the destroy
 * itself point elsewhere (billing, removed nodes) and are raised after this.
 */
export async function clearDestroyedNodeNotifications(trx: DB, node: { user_id: number; mn_id: string }) {
  const cleared = await clearNotificationsLinkingTo(trx, node.user_id, nodeLink(node), Date.now());
  if (cleared) await insertEvent(trx, node.user_id, 'refresh_notifications', {});
}
