import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../shared/events';
import { useToasts } from '../ui/Toasts';
import { publishLive } from '../app/liveBus';
import { coalescedReads, queriesFor, readAgain } from '../app/liveQueries';
import { errorCode } from '../app/errors';
import { tokenStore } from '../app/storage';
import { trpc } from '../app/trpc';

/**
 * The logged-in user's live events: one subscription, mounted once per token. The
 * events carry ids (tracked), so after a dropped connection or a server restart
 * wsLink resubscribes with `lastEventId` and the server replays what was missed; the
 * first subscription's gap (before it had an id) is closed by reading again on `sync`.
 */
export function LiveEvents() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  // State, not a memo: it owns a timer, and React may drop a memo's value.
  const [reads] = useState(() => coalescedReads(queryClient));
  useEffect(() => () => reads.stop(), [reads]);

  function handle(event: LiveEvent | { type: 'sync' }) {
    if (event.type === 'sync') {
      // A new subscription (page load, login) streams from now on: an event raised between
      // the page's first reads and this point was never sent (a node that went from "Start
      // required" to Running meanwhile stayed "Start required"). Read those again, once.
      // Resumed subscriptions get no sync: the server replays what they missed instead.
      const at = Date.now();
      readAgain(queryClient, { predicate: (q) => q.state.dataUpdatedAt <= at });
      return;
    }
    // Pages that wait for one event (the deploy page for its server_created) listen here.
    publishLive(event);
    switch (event.type) {
      case 'restarted':
        // A new server build may be running: load the matching client.
        window.location.reload();
        return;
      case 'maintenance':
        // Switch app at once; the status call confirms it (and carries the rest).
        utils.system.status.setData(undefined, (old) => (old ? { ...old, maintenance: event.payload.on } : old));
        utils.auth.get_common_info.setData(undefined, (old) => (old ? { ...old, maintenance: event.payload.on } : old));
        reads.read(queriesFor(event));
        return;
      case 'update_balance': {
        // Show the new balance at once in the top bar, without a round trip; the billing page refetches.
        utils.auth.get_common_info.setData(undefined, (old) =>
          old ? { ...old, info: { ...old.info, balance: event.payload.balance } } : old,
        );
        reads.read(queriesFor(event));
        return;
      }
      case 'new_notification':
        // Stays until closed (spec: no auto-dismiss); the list refetches on the `refresh_notifications` that follows.
        toasts.show(event.payload.message, { sticky: true });
        return;
      default:
        // Hints to refetch: only the queries the event concerns (liveQueries.ts).
        reads.read(queriesFor(event));
    }
  }

  trpc.events.live.useSubscription(undefined, {
    onData: (tracked) => handle(tracked.data),
    // The server ends the stream when this session ends (logout elsewhere, password
    // change, account disabled): the token is dead, so forget it like any 401.
    // Any other refusal (too many open tabs) ends live updates for this tab: say so, so
    // the customer knows why the page stopped updating and what to do.
    onError: (err) => {
      if (errorCode(err) === 'UNAUTHORIZED') return tokenStore.clear();
      toasts.show(`Live updates stopped in this tab: ${err.message} Reload the page to try again.`, { sticky: true });
    },
  });
  return null;
}
