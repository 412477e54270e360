import type { LiveEvent } from '../../shared/events';
import type { DB } from '../db/open';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../log';
import { eventsAfter, lastEventId } from './queries';

export type HubEvent = { id: number; userId: number | null; event: LiveEvent };
type Listener = (e: HubEvent) => void;

/**
 * Fans committed rows of the `events` table out to connected subscribers. It polls
 * the table (so events written by the operator CLI, another process, arrive too) and
 * can be poked right after an in-process commit for immediate delivery. The poll is
 * the recurring job `events.poll` (a read; no write while idle); its pruning is the
 * `prune` job's.
 */
export class EventHub {
  private cursor = 0;
  private listeners = new Set<{ userId: number; fn: Listener }>();
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

  /** Deliver whatever has been committed since the last look (single flight: the runner's). */
  poke(): Promise<void> {
    if (this.jobs) return this.jobs.trigger('events.poll');
    return (this.inline = this.inline.then(() => this.drain()));
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
