import { tracked } from '@trpc/server';
import type { LiveEvent } from '../../shared/events';
import { liveSubscriptionInput } from '../../shared/events';
import { authedProcedure, router } from '../trpc';
import type { HubEvent } from './hub';
import { toLiveEvent } from './hub';
import { takeSubscriptionSlot } from './live-limits';
import { eventsForUserAfter, lastEventId } from './queries';
import { SessionGuard } from './session-guard';

/** Sent first on every (re)subscription so the client always holds a position to resume from. */
export type SyncFrame = { type: 'sync'; payload: Record<string, never> };

export const eventsRouter = router({
  /**
   * The user's live events. Subscribes to the hub first, then replays what was
   * missed since `lastEventId` (a reconnect), then streams; ids are the events
   * table's, so replay also works across a server restart. It ends, with an
   * UNAUTHORIZED error, when the session that opened it ends.
   */
  live: authedProcedure
    .meta({ allowInMaintenance: true })
    .input(liveSubscriptionInput)
    .subscription(async function* ({ ctx, input, signal }) {
      const userId = ctx.user.id;
      const release = takeSubscriptionSlot(ctx.req, userId);
      const pending: HubEvent[] = [];
      let wake: (() => void) | undefined;
      const guard = new SessionGuard(ctx.db, ctx.session.id, ctx.session.expires_at, () => wake?.());
      const unsubscribe = ctx.hub.subscribe(userId, (e) => {
        pending.push(e);
        wake?.();
      });
      const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
      try {
        await guard.start();
        let last = Number(input?.lastEventId ?? NaN);
        if (Number.isSafeInteger(last) && last >= 0) {
          // Page by page until caught up: a tab back from a long sleep misses nothing
          // (the events table keeps a week, so this is bounded).
          for (let page = await eventsForUserAfter(ctx.db, userId, last); page.length; page = await eventsForUserAfter(ctx.db, userId, last)) {
            for (const row of page) {
              last = row.id;
              const event = toLiveEvent(row.type, row.payload);
              if (await guard.admit({ event })) yield tracked(String(row.id), event as LiveEvent | SyncFrame);
            }
          }
        } else {
          guard.assertLive();
          last = await lastEventId(ctx.db);
          yield tracked(String(last), { type: 'sync', payload: {} } as LiveEvent | SyncFrame);
        }
        while (!signal?.aborted) {
          guard.assertLive();
          while (pending.length) {
            const e = pending.shift()!;
            if (e.id <= last) continue; // already replayed
            last = e.id;
            if (await guard.admit(e)) yield tracked(String(e.id), e.event as LiveEvent | SyncFrame);
          }
          guard.assertLive();
          await Promise.race([new Promise<void>((r) => (wake = r)), stopped]);
          wake = undefined;
        }
      } finally {
        guard.stop();
        unsubscribe();
        release();
      }
    }),
});
