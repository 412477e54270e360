import type { LiveEvent } from '../../shared/events';
import type { DB } from '../db/open';
import type { Logger } from '../log';
import { eventsAfter, lastEventId, pruneEvents } from './queries';

export type HubEvent = { id: number; userId: number | null; event: LiveEvent };
type Listener = (e: HubEvent) => void;

/**
 * Fans committed rows of the `events` table out to connected subscribers. It polls
 * the table (so events written by the operator CLI, another process, arrive too) and
 * can be poked right after an in-process commit for immediate delivery.
 */
export class EventHub {
  private cursor = 0;
  private listeners = new Set<{ userId: number; fn: Listener }>();
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly db: DB,
    private readonly log: Logger,
    private readonly pollMs = 500,
  ) {}

  async start(): Promise<void> {
    this.cursor = await lastEventId(this.db);
    await pruneEvents(this.db, Date.now() - 7 * 86_400_000);
    this.timer = setInterval(() => this.poke(), this.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.listeners.clear();
  }

  subscribe(userId: number, fn: Listener): () => void {
    const entry = { userId, fn };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Deliver whatever has been committed since the last look. */
  poke(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        void this.poke();
      }
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const rows = await eventsAfter(this.db, this.cursor);
        for (const row of rows) {
          this.cursor = row.id;
          const e: HubEvent = { id: row.id, userId: row.user_id, event: toLiveEvent(row.type, row.payload) };
          for (const l of this.listeners) if (row.user_id === null || row.user_id === l.userId) l.fn(e);
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
