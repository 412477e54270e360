import type { LiveEvent } from '../../shared/events';
import { useToasts } from '../ui/Toasts';
import { useNotifications } from '../dashboard/notifications';
import { trpc } from './trpc';

/**
 * The logged-in user's live events: one subscription, mounted once per token. The
 * events carry ids (tracked), so after a dropped connection or a server restart
 * wsLink resubscribes with `lastEventId` and the server replays what was missed.
 */
export function LiveEvents() {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const notifications = useNotifications();

  function handle(event: LiveEvent | { type: 'sync' }) {
    switch (event.type) {
      case 'sync':
        return; // only gives the subscription a position to resume from
      case 'restarted':
        // A new server build may be running: load the matching client.
        window.location.reload();
        return;
      case 'maintenance':
        // Switch app at once; the status call confirms it (and carries the rest).
        utils.system.status.setData(undefined, (old) => (old ? { ...old, maintenance: event.payload.on } : old));
        utils.auth.get_common_info.setData(undefined, (old) => (old ? { ...old, maintenance: event.payload.on } : old));
        void utils.system.status.invalidate();
        if (!event.payload.on) void utils.invalidate();
        return;
      case 'update_balance': {
        // Show the new balance at once, without a round trip.
        utils.auth.get_common_info.setData(undefined, (old) => (old ? { ...old, info: { ...old.info, balance: event.payload.balance } } : old));
        return;
      }
      case 'new_notification':
        notifications.add(event.payload);
        toasts.show(event.payload.message, { sticky: true });
        return;
      case 'update_stats':
      case 'refresh_notifications':
      case 'refresh_queue':
      case 'refresh_masternodes':
      case 'refresh_masternode':
      case 'refresh_transactions':
        // Hints to refetch. The lists behind most of them arrive with later issues;
        // invalidating everything active is cheap and always correct.
        void utils.invalidate();
        return;
      case 'server_created':
      case 'started':
        return; // handled by the deploy and node pages (later issues)
    }
  }

  trpc.events.live.useSubscription(undefined, {
    onData: (tracked) => handle(tracked.data),
  });
  return null;
}
