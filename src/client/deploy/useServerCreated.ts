import { useState } from 'react';
import { serverCreatedSeen, useLiveEvent } from '../app/liveBus';
import { trpc } from '../app/trpc';

/**
 * Whether the node `serverId` is set up: its live `server_created` event arrived (here,
 * or before this page asked: liveBus remembers), or the build queue already shows it
 * done. A queue item that failed gives its reason.
 */
export function useServerCreated(serverId: string | null): { created: boolean; failed: string | null } {
  const [heard, setHeard] = useState<string | null>(null);
  useLiveEvent('server_created', (p) => {
    if (p.server_id === serverId) setHeard(p.server_id);
  });
  const seen = serverId !== null && (heard === serverId || serverCreatedSeen(serverId));
  // The event refetches the queue; the interval is a safety net should the live
  // connection be down while this page waits.
  const queue = trpc.deploy.get_building_servers.useQuery(undefined, { enabled: serverId !== null, refetchInterval: serverId && !seen ? 10_000 : false });
  if (!serverId) return { created: false, failed: null };
  const item = queue.data?.data.find((i) => i.mn_id === serverId);
  const created = seen || item?.status === 'done';
  const failed = item?.status === 'failed' ? (item.reason ?? 'The deployment failed.') : null;
  return { created, failed };
}
