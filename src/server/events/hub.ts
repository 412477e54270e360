import type { LiveEvent } from '../../shared/events';
import type { DB } from '../db/open';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { eventsAfter, lastEventId } from './outbox';

export type HubEvent = { id: number; userId: number | null; event: LiveEvent };
type Listener = (e: HubEvent) => void;
/** One subscription: a listener of its own, so one function subscribed twice is two subscriptions. */
type Entry = { readonly fn: Listener };

/** Deliveries between two turns of the event loop during a drain (other requests go on meanwhile). */
export const DELIVERIES_PER_TURN = 500;

/**
 * Fans committed rows of the `events` table out to connected subscribers. It polls
 * the table (so events written by the operator CLI, another process, arrive too) and
 * can be poked right after an in-process commit for immediate delivery. The poll is
 * the recurring job `events.poll` (a read; no write while idle); its pruning is the
 * `prune` job's.
 */
export class EventHub {
  private cursor = 0;
  /**
   * Listeners by user: a user's event reaches only that user's listeners without a
   * look at anyone else's. One set over all made a drain cost events × subscriptions
   * (10,000 per-user events to 10,000 subscriptions held the loop for seconds;
   * docs/benchmarks.md, live fan-out).
   */
  private byUser = new Map<number, Set<Entry>>();
  private count = 0;
  private jobs: JobRunner | undefined;
  /** Without a runner (procedure tests), drains run one after another. */
  private inline: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DB,
    private readonly log: Logger,
    private readonly pollMs = 500,
  ) {}

  async start(jobs?: JobRunner): Promise<void> {
    this.cursor = await lastEventId(this.db);
    this.jobs = jobs;
    jobs?.every('events.poll', { everyMs: this.pollMs, deadlineMs: 10_000, run: () => this.drain() });
  }

  /** The poll stops with the runner. */
  stop(): void {
    this.byUser.clear();
    this.count = 0;
  }

  subscribe(userId: number, fn: Listener): () => void {
    // An object, not a wrapping function: a function (and its context) costs more, and
    // one is kept per subscription.
    const entry: Entry = { fn };
    let mine = this.byUser.get(userId);
    if (!mine) this.byUser.set(userId, (mine = new Set()));
    mine.add(entry);
    this.count += 1;
    return () => {
      // After stop() the set is no longer the hub's, and the count started again.
      if (this.byUser.get(userId) !== mine || !mine.delete(entry)) return;
      this.count -= 1;
      if (mine.size === 0) this.byUser.delete(userId);
    };
  }

  private *everyone(): Generator<Entry> {
    for (const mine of this.byUser.values()) yield* mine;
  }

  get subscriberCount(): number {
    return this.count;
  }

  /** Deliver whatever has been committed since the last look (single flight: the runner's). */
  poke(): Promise<void> {
    if (this.jobs) return this.jobs.trigger('events.poll');
    return (this.inline = this.inline.then(() => this.drain()));
  }

  private async drain(): Promise<void> {
    try {
      let sent = 0;
      for (;;) {
        const rows = await eventsAfter(this.db, this.cursor);
        for (const row of rows) {
          this.cursor = row.id;
          const e: HubEvent = { id: row.id, userId: row.user_id, event: toLiveEvent(row.type, row.payload) };
          const targets = row.user_id === null ? this.everyone() : (this.byUser.get(row.user_id) ?? []);
          for (const l of targets) {
            l.fn(e);
            // Each delivery runs on in microtasks (the subscription's send); without a turn
            // of the loop now and then, 10,000 of them held every other request, and
            // keep-alive answers went unread until the sockets were dropped.
            if (++sent % DELIVERIES_PER_TURN === 0) await new Promise((r) => setImmediate(r));
          }
        }
        if (rows.length < 500) return;
      }
    } catch (err) {
      this.log.error('event hub drain failed', { err });
    }
  }
}

export function toLiveEvent(type: string, payload: string): LiveEvent {
  return { type, payload: JSON.parse(payload) } as LiveEvent;
}
