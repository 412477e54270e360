import type { DB } from '../db/open';

/**
 * What notifications needs from nodes (above it: a node raises its alerts): which of a
 * user's nodes still exist, by id, to name the muted ones. Handed in by the composition
 * root (src/server/domain-hooks.ts) once, at load.
 */
export type NotificationsPorts = {
  /** The user's nodes that are not deleted (row id and `mn_id`), in node id order. */
  userNodes(db: DB, userId: number): Promise<Array<{ id: number; mn_id: string }>>;
};

let ports: NotificationsPorts | null = null;

export function wireNotifications(p: NotificationsPorts): void {
  ports = p;
}

/** The handed-in ports; a process that forgot to wire them fails loudly. */
export function notificationsPorts(): NotificationsPorts {
  if (!ports) throw new Error('notifications ports are not wired (import src/server/domain-hooks.ts)');
  return ports;
}
