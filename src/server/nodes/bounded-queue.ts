/**
 * Runs at most `concurrency` tasks at once; later ones wait in line, and past
 * `maxQueued` waiting tasks a new one is refused at once (QueueFullError) rather than
 * holding its request open for minutes. A waiting task whose signal aborts (its client
 * went away) leaves the line without running.
 */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
}

export class QueueAbortedError extends Error {
  override readonly name = 'QueueAbortedError';
}

type Waiter = { start(): void; abandon(): void };

export class BoundedQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new QueueAbortedError('aborted before it started');
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw new QueueFullError('queue is full');
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => waiter.abandon();
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          abandon: () => {
            const at = this.waiting.indexOf(waiter);
            if (at >= 0) this.waiting.splice(at, 1);
            reject(new QueueAbortedError('aborted while waiting'));
          },
        };
        this.waiting.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line (running stays the same), else free it.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.running--;
    }
  }
}
