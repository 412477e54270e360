import type { AlertSettingsOutput } from '../../shared/schemas/notifications';
import type { DB } from '../db/open';
import { findQuietHours, mutedAmong, saveQuietHours } from './alert-queries';
import { notificationsPorts } from './ports';

/** The user's muted nodes that still exist, by `mn_id`, in node id order (nodes/ owns the nodes). */
async function mutedNodeNames(db: DB, userId: number): Promise<string[]> {
  const nodes = await notificationsPorts().userNodes(db, userId);
  const muted = await mutedAmong(
    db,
    nodes.map((n) => n.id),
  );
  return nodes.filter((n) => muted.has(n.id)).map((n) => n.mn_id);
}

export async function getAlertSettings(db: DB, userId: number): Promise<AlertSettingsOutput> {
  const q = await findQuietHours(db, userId);
  return {
    success: true,
    quiet_hours: q ? { start_hour: q.start_hour, end_hour: q.end_hour } : null,
    muted_nodes: await mutedNodeNames(db, userId),
  };
}

/** Sets (or with null clears) the user's quiet hours. Mail already held keeps its summary job. */
export async function setQuietHours(db: DB, userId: number, hours: { start_hour: number; end_hour: number } | null) {
  await saveQuietHours(db, userId, hours);
  return { success: true as const };
}
