import { tracked } from '@trpc/server';
import type { LiveEvent } from '../../shared/events';
import { liveSubscriptionInput } from '../../shared/events';
import { authedProcedure, router } from '../rpc/trpc';
import { claimOnSend, frameHead, frameTail, liveSocketOf } from './direct';
import type { HubEvent } from '../events/hub';
import { toLiveEvent } from '../events/hub';
import { takeSubscriptionSlot } from '../events/live-limits';
import { eventsForUserAfter, lastEventId } from '../events/outbox';
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
    .subscription(async function* (opts) {
      // Only what the stream needs is kept: tRPC's options hold every context the
      // middlewares made (each a copy of all of AppDeps, the user and session rows) and
      // would stay alive as long as the subscription (docs/benchmarks.md, live fan-out).
      const { db, hub, req } = opts.ctx;
      const userId = opts.ctx.user.id;
      const { signal } = opts;
      const from = Number(opts.input?.lastEventId ?? NaN);
      const guard = new SessionGuard(db, opts.ctx.session.id, opts.ctx.session.expires_at, () => wake?.());
      opts = undefined as never;
      const release = takeSubscriptionSlot(hub, req, userId);
      const pending: HubEvent[] = [];
      let wake: (() => void) | undefined;
      // The fast path (direct.ts): set once the subscription's id is known; `idle` while
      // this generator waits with nothing pending, the only time the hub's listener may
      // write an event itself (so events still leave in id order).
      const socket = liveSocketOf(req);
      let head: string | undefined;
      let idle = false;
      let last = NaN;
      const send = (e: HubEvent) => {
        if (socket!.readyState === socket!.OPEN) socket!.send(head + frameTail(e));
      };
      const unsubscribe = hub.subscribe(userId, (e) => {
        if (idle && head !== undefined && !signal?.aborted) {
          if (e.id <= last) return; // already replayed
          const admitted = guard.check(e);
          if (admitted !== null) {
            last = e.id;
            if (admitted) send(e);
            return;
          }
        }
        // Whatever follows waits behind it, in order, for the generator.
        idle = false;
        pending.push(e);
        wake?.();
      });
      // Until the id is known, each frame is an object of this subscription's own, so the
      // live encoder can tell whose it is (a hub event is shared by every subscription).
      const frame = (id: number | string, event: LiveEvent | SyncFrame) => {
        if (socket && head === undefined)
          claimOnSend((event = { ...event }), (subId, jsonrpc) => (head = frameHead(subId, jsonrpc)));
        return tracked(String(id), event);
      };
      // The wait below ends on a wake: a stop wakes it too (one listener, no promise kept for it).
      signal?.addEventListener('abort', () => wake?.(), { once: true });
      try {
        await guard.start();
        last = from;
        if (Number.isSafeInteger(last) && last >= 0) {
          // Page by page until caught up: a tab back from a long sleep misses nothing
          // (the events table keeps a week, so this is bounded).
          for (
            let page = await eventsForUserAfter(db, userId, last);
            page.length;
            page = await eventsForUserAfter(db, userId, last)
          ) {
            for (const row of page) {
              last = row.id;
              const event = toLiveEvent(row.type, row.payload);
              if (await guard.admit({ event })) yield frame(row.id, event);
            }
          }
        } else {
          guard.assertLive();
          last = await lastEventId(db);
          yield frame(last, { type: 'sync', payload: {} });
        }
        while (!signal?.aborted) {
          guard.assertLive();
          while (pending.length) {
            const e = pending.shift()!;
            if (e.id <= last) continue; // already replayed
            last = e.id;
            if (!(await guard.admit(e))) continue;
            if (head !== undefined) send(e);
            else yield frame(e.id, e.event);
          }
          guard.assertLive();
          if (signal?.aborted) break;
          idle = true;
          await new Promise<void>((r) => (wake = r));
          idle = false;
          wake = undefined;
        }
      } finally {
        idle = false;
        guard.stop();
        unsubscribe();
        release();
      }
    }),
});
