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
import { subscriptionEnded, subscriptionStarted } from './ws-limits';
import type { WebSocket } from 'ws';
import type { DB } from '../db/open';

/** Sent first on every (re)subscription so the client always holds a position to resume from. */
export type SyncFrame = { type: 'sync'; payload: Record<string, never> };

/**
 * One subscription's state, shared by its generator, the hub's listener and the fast
 * path. Fields and methods rather than closures over the generator's locals: each
 * closure is an object and a context of its own per subscription, and 10,000
 * subscriptions hold theirs as long as they stream (docs/benchmarks.md, live fan-out).
 */
class LiveStream {
  readonly pending: HubEvent[] = [];
  wake: (() => void) | undefined = undefined;
  /** The fast path (direct.ts): set once the subscription's id is known. */
  head: string | undefined = undefined;
  /**
   * While the generator waits with nothing pending: the only time the hub's listener may
   * write an event itself (so events still leave in id order).
   */
  idle = false;
  last = NaN;
  readonly guard: SessionGuard;

  constructor(
    private readonly socket: WebSocket | undefined,
    private readonly signal: AbortSignal | undefined,
    db: DB,
    session: { id: number; expires_at: number },
  ) {
    this.guard = new SessionGuard(db, session.id, session.expires_at, this);
  }

  /** The hub's listener. */
  onEvent(e: HubEvent): void {
    if (this.idle && this.head !== undefined && !this.signal?.aborted) {
      if (e.id <= this.last) return; // already replayed
      const admitted = this.guard.check(e);
      if (admitted !== null) {
        this.last = e.id;
        if (admitted) this.send(e);
        return;
      }
    }
    // Whatever follows waits behind it, in order, for the generator.
    this.idle = false;
    this.pending.push(e);
    this.wakeUp();
  }

  wakeUp(): void {
    this.wake?.();
  }

  send(e: HubEvent): void {
    const socket = this.socket!;
    if (socket.readyState === socket.OPEN) socket.send(this.head + frameTail(e));
  }

  /**
   * Until the id is known, each frame is an object of this subscription's own, so the
   * live encoder can tell whose it is (a hub event is shared by every subscription).
   */
  frame(id: number | string, event: LiveEvent | SyncFrame) {
    if (this.socket && this.head === undefined)
      claimOnSend((event = { ...event }), (subId, jsonrpc) => (this.head = frameHead(subId, jsonrpc)));
    return tracked(String(id), event);
  }
}

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
      const socket = liveSocketOf(req);
      const s = new LiveStream(socket, signal, db, opts.ctx.session);
      opts = undefined as never;
      const release = takeSubscriptionSlot(hub, req, userId);
      // Accepted: the socket is in use, and its idle watch (ws-limits.ts) waits until it ends.
      subscriptionStarted(socket);
      const { guard, pending } = s;
      const unsubscribe = hub.subscribe(userId, (e) => s.onEvent(e));
      // The wait below ends on a wake: a stop wakes it too (no promise kept for it).
      signal?.addEventListener('abort', () => s.wakeUp(), { once: true });
      try {
        await guard.start();
        s.last = from;
        if (Number.isSafeInteger(s.last) && s.last >= 0) {
          // Page by page until caught up: a tab back from a long sleep misses nothing
          // (the events table keeps a week, so this is bounded).
          for (
            let page = await eventsForUserAfter(db, userId, s.last);
            page.length;
            page = await eventsForUserAfter(db, userId, s.last)
          ) {
            for (const row of page) {
              s.last = row.id;
              const event = toLiveEvent(row.type, row.payload);
              if (await guard.admit({ event })) yield s.frame(row.id, event);
            }
          }
        } else {
          guard.assertLive();
          s.last = await lastEventId(db);
          yield s.frame(s.last, { type: 'sync', payload: {} });
        }
        while (!signal?.aborted) {
          guard.assertLive();
          while (pending.length) {
            const e = pending.shift()!;
            if (e.id <= s.last) continue; // already replayed
            s.last = e.id;
            if (!(await guard.admit(e))) continue;
            if (s.head !== undefined) s.send(e);
            else yield s.frame(e.id, e.event);
          }
          guard.assertLive();
          if (signal?.aborted) break;
          s.idle = true;
          await new Promise<void>((r) => (s.wake = r));
          s.idle = false;
          s.wake = undefined;
        }
      } finally {
        s.idle = false;
        guard.stop();
        unsubscribe();
        release();
        subscriptionEnded(socket);
      }
    }),
});
