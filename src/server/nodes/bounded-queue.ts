/**
 * Runs at most `concurrency` tasks at once; later ones wait in line, and past
 * `maxQueued` waiting tasks a new one is refused at once (QueueFullError) rather than
 * holding its request open for minutes. A waiting task whose signal aborts (its client
 * went away) leaves the line without running.
 *
 * Fair between owners (a user id): an owner has at most one task running, so two
 * customers with ten costly keystores each cannot hold both slots against a third; and a
 * freed slot goes round robin, to the waiting owner served longest ago, an owner not
 * served yet first (in order of arrival). A newcomer therefore waits for at most one
 * running task to end. A task without an owner is its own owner.
 */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
}

export class QueueAbortedError extends Error {
  override readonly name = 'QueueAbortedError';
}

type Waiter = { start(): void; abandon(): void };
export type Owner = string | number | symbol;

export class BoundedQueue {
  private running = 0;
  private waitingCount = 0;
  /** Each owner's waiting tasks, oldest first; owners in order of arrival (a Map keeps insertion order). */
  private readonly lines = new Map<Owner, Waiter[]>();
  /** Owners with their one task running. */
  private readonly busy = new Set<Owner>();
  /** The turn at which each owner last got a slot (turns count from 1; never served reads 0). */
  private readonly lastServed = new Map<Owner, number>();
  private turn = 0;

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

  async run<T>(task: () => Promise<T>, signal?: AbortSignal, owner: Owner = Symbol('task')): Promise<T> {
    if (signal?.aborted) throw new QueueAbortedError('aborted before it started');
    // A free slot means nobody waiting could take it (their owners are busy): no one is passed.
    if (this.running < this.concurrency && !this.busy.has(owner)) this.begin(owner);
    else {
      if (this.waitingCount >= this.maxQueued) throw new QueueFullError('queue is full');
      await this.wait(owner, signal);
    }
    try {
      return await task();
    } finally {
      this.running--;
      this.busy.delete(owner);
      this.forgetIdle();
      this.dispatch();
    }
  }

  private wait(owner: Owner, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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
  }

  /** Counted as running at once, so a second slot freed in the same tick sees it. */
  private begin(owner: Owner) {
    this.running++;
    this.busy.add(owner);
    this.lastServed.set(owner, ++this.turn);
  }

  private dispatch() {
    while (this.running < this.concurrency) {
      const owner = this.nextOwner();
      if (owner === undefined) return;
      const line = this.lines.get(owner)!;
      const waiter = line.shift()!;
      if (!line.length) this.lines.delete(owner);
      this.waitingCount--;
      this.begin(owner);
      waiter.start();
    }
  }

  /** The waiting owner with nothing running that was served longest ago; ties (never served) by arrival. */
  private nextOwner(): Owner | undefined {
    let pick: Owner | undefined;
    let pickTurn = Infinity;
    for (const owner of this.lines.keys()) {
      if (this.busy.has(owner)) continue;
      const served = this.lastServed.get(owner) ?? 0;
      if (served < pickTurn) {
        pick = owner;
        pickTurn = served;
      }
    }
    return pick;
  }

  /**
   * Drops the turns of owners gone from the queue that were served before every owner
   * still in it: forgotten, such an owner reads "never served" and still comes before
   * those owners, so the order is unchanged while the map stays as small as the queue.
   * An owner back soon after its turn keeps it and waits behind the others.
   */
  private forgetIdle() {
    let oldest = Infinity;
    for (const owner of [...this.lines.keys(), ...this.busy])
      oldest = Math.min(oldest, this.lastServed.get(owner) ?? Infinity);
    for (const [owner, served] of this.lastServed) {
      if (served < oldest && !this.busy.has(owner) && !this.lines.has(owner)) this.lastServed.delete(owner);
    }
  }
}
