import { describe, expect, it } from 'vitest';
import { BoundedQueue, QueueAbortedError, QueueFullError, type Owner } from '../../src/server/nodes/bounded-queue';

// The keystore derivation line's order of service, without timing: each task is held
// until the test ends it, and the test looks at which tasks have started.

/** A queue whose tasks run until `end(label)`; `started` lists the labels in the order their tasks began. */
function line(concurrency: number, maxQueued = 100) {
  const queue = new BoundedQueue(concurrency, maxQueued);
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const results: Promise<unknown>[] = [];
  // Lets started tasks begin and freed slots pass on (pending callbacks only, no timers).
  const settle = () => new Promise<void>((r) => setImmediate(r));
  return {
    queue,
    started,
    settle,
    add(owner: Owner | undefined, label: string, signal?: AbortSignal) {
      const task = () =>
        new Promise<void>((resolve) => {
          started.push(label);
          ends.set(label, resolve);
        });
      const done = queue.run(task, signal, owner);
      results.push(done.catch(() => undefined));
      return done;
    },
    async end(label: string) {
      ends.get(label)!();
      await settle();
    },
    settled: () => Promise.all(results),
  };
}

describe('fair derivation line', () => {
  it('runs one task per owner at a time, even with a slot free', async () => {
    const l = line(2);
    for (const label of ['a1', 'a2', 'a3']) void l.add('A', label);
    await l.settle();
    expect(l.started).toEqual(['a1']);
    expect([l.queue.active, l.queue.queued]).toEqual([1, 2]);
    void l.add('B', 'b1');
    await l.settle();
    expect(l.started).toEqual(['a1', 'b1']);
    await l.end('a1');
    expect(l.started).toEqual(['a1', 'b1', 'a2']);
    await l.end('a2');
    await l.end('b1');
    await l.end('a3');
    expect([l.queue.active, l.queue.queued]).toEqual([0, 0]);
  });

  it('hands a freed slot round robin, a newcomer before the owners already served', async () => {
    const l = line(2);
    for (const label of ['a1', 'a2', 'a3']) void l.add('A', label);
    for (const label of ['b1', 'b2', 'b3']) void l.add('B', label);
    void l.add('C', 'c1');
    await l.settle();
    expect(l.started).toEqual(['a1', 'b1']);
    // A's next file would be first come; C has waited for no turn yet.
    await l.end('a1');
    expect(l.started).toEqual(['a1', 'b1', 'c1']);
    await l.end('b1');
    expect(l.started.at(-1)).toBe('a2');
    await l.end('c1');
    expect(l.started.at(-1)).toBe('b2');
    await l.end('a2');
    await l.end('b2');
    await l.end('a3');
    await l.end('b3');
    expect(l.started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('serves three owners in turn through one slot', async () => {
    const l = line(1);
    for (const owner of ['A', 'B', 'C']) for (const n of [1, 2, 3]) void l.add(owner, `${owner.toLowerCase()}${n}`);
    await l.settle();
    for (let i = 0; i < 9; i++) await l.end(l.started.at(-1)!);
    expect(l.started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']);
  });

  it('puts an owner back right after its turn behind an owner served before it', async () => {
    const l = line(2);
    void l.add('B', 'b1');
    void l.add('B', 'b2');
    void l.add('A', 'a1');
    void l.add('C', 'c1');
    await l.settle();
    expect(l.started).toEqual(['b1', 'a1']);
    await l.end('a1');
    expect(l.started.at(-1)).toBe('c1');
    // A's next upload arrives at once (as a script's would): B, served before A, goes first.
    void l.add('A', 'a2');
    await l.end('b1');
    expect(l.started.at(-1)).toBe('b2');
    await l.end('c1');
    expect(l.started.at(-1)).toBe('a2');
    await l.end('b2');
    await l.end('a2');
  });

  it('gives tasks without an owner every slot, in arrival order', async () => {
    const l = line(2);
    for (const label of ['x', 'y', 'z']) void l.add(undefined, label);
    await l.settle();
    expect(l.started).toEqual(['x', 'y']);
    await l.end('x');
    expect(l.started).toEqual(['x', 'y', 'z']);
    await l.end('y');
    await l.end('z');
  });

  it('refuses past maxQueued waiting tasks, whoever owns them, and a task that leaves the line frees its place', async () => {
    const l = line(2, 3);
    void l.add('A', 'a1');
    void l.add('A', 'a2');
    void l.add('B', 'b1');
    const gone = new AbortController();
    const leaving = l.add('B', 'b2', gone.signal);
    void l.add('C', 'c1');
    expect([l.queue.active, l.queue.queued]).toEqual([2, 3]);
    await expect(l.add('D', 'd1')).rejects.toBeInstanceOf(QueueFullError);
    gone.abort();
    await expect(leaving).rejects.toBeInstanceOf(QueueAbortedError);
    expect(l.queue.queued).toBe(2);
    void l.add('D', 'd1');
    await l.end('a1');
    await l.end('b1');
    // c1 and d1 came first (never served); a2 waited for both.
    expect(l.started).toEqual(['a1', 'b1', 'c1', 'd1']);
    await l.end('c1');
    expect(l.started.at(-1)).toBe('a2');
    await l.end('d1');
    await l.end('a2');
    await l.settled();
    expect(l.started).not.toContain('b2');
    expect([l.queue.active, l.queue.queued]).toEqual([0, 0]);
  });

  it('frees the owner and the slot when a task fails', async () => {
    const queue = new BoundedQueue(1, 10);
    await expect(queue.run(() => Promise.reject(new Error('boom')), undefined, 'A')).rejects.toThrow('boom');
    expect(await queue.run(async () => 'next', undefined, 'A')).toBe('next');
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });
});
