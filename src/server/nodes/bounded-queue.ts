/**
 * Runs at most `concurrency` tasks at once; later ones wait in line, and past
 * `maxQueued` waiting tasks a new one is refused at once (QueueFullError) rather than
 * holding its request open for minutes. A waiting task whose signal aborts (its client
 * went away) leaves the line without running.
 *
 * Waiting tasks are grouped by owner (a user id) and a freed slot goes to the owners in
 * turn: one customer's ten costly keystores no longer make another customer's single
 * file wait behind all ten (it waited 25 s; now at most one task's time).
 */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
}

export class QueueAbortedError extends Error {
  override readonly name = 'QueueAbortedError';
}

type Waiter = { start(): void; abandon(): void };
type Owner = string | number;

export class BoundedQueue {
  private running = 0;
  /** Each owner's line, in the order owners are served (a Map keeps insertion order). */
  private readonly lines = new Map<Owner, Waiter[]>();
  private waitingCount = 0;
  private readonly runningBy = new Map<Owner, number>();

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waitingCount;
  }

  /**
   * The next waiter: of the owner with the fewest tasks running, ties going round robin
   * (the served owner moves to the back of the turn).
   */
  private takeNext(): { waiter: Waiter; owner: Owner } | undefined {
    let pick: Owner | undefined;
    for (const owner of this.lines.keys()) {
      if (pick === undefined || this.runningOf(owner) < this.runningOf(pick)) pick = owner;
    }
    if (pick === undefined) return undefined;
    const line = this.lines.get(pick)!;
    const waiter = line.shift()!;
    this.lines.delete(pick);
    if (line.length) this.lines.set(pick, line);
    this.waitingCount--;
    // Counted as running now, so a second slot freed in the same tick sees it.
    this.count(pick, 1);
    return { waiter, owner: pick };
  }

  private runningOf(owner: Owner): number {
    return this.runningBy.get(owner) ?? 0;
  }

  private count(owner: Owner, by: 1 | -1) {
    const n = this.runningOf(owner) + by;
    if (n > 0) this.runningBy.set(owner, n);
    else this.runningBy.delete(owner);
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal, owner: Owner = ''): Promise<T> {
    if (signal?.aborted) throw new QueueAbortedError('aborted before it started');
    if (this.running >= this.concurrency) {
      if (this.waitingCount >= this.maxQueued) throw new QueueFullError('queue is full');
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => waiter.abandon();
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          abandon: () => {
            const line = this.lines.get(owner) ?? [];
            const at = line.indexOf(waiter);
            if (at >= 0) {
              line.splice(at, 1);
              this.waitingCount--;
              if (!line.length) this.lines.delete(owner);
            }
            reject(new QueueAbortedError('aborted while waiting'));
          },
        };
        const line = this.lines.get(owner);
        if (line) line.push(waiter);
        else this.lines.set(owner, [waiter]);
        this.waitingCount++;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      this.running++;
      this.count(owner, 1);
    }
    try {
      return await task();
    } finally {
      this.count(owner, -1);
      // Hand the slot straight to the next in line (running stays the same), else free it.
      const next = this.takeNext();
      if (next) next.waiter.start();
      else this.running--;
    }
  }
}
