/**
 * Runs at most `concurrency` tasks at once; later ones wait in line, and past
 * `maxQueued` waiting tasks a new one is refused at once (QueueFullError) rather than
 * holding its request open for minutes.
 */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
}

export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

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

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw new QueueFullError('queue is full');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line (running stays the same), else free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
