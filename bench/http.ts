import { Worker } from 'node:worker_threads';

export type LoadResult = { rps: number; p50: number; p99: number; count: number; errors: number };

/** Drives GET `url` with `concurrency` requests in flight from a worker thread. */
export function load(url: string, opts: { headers?: Record<string, string>; concurrency?: number; durationMs?: number; warmupMs?: number } = {}): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: { url, headers: opts.headers ?? {}, concurrency: opts.concurrency ?? 50, durationMs: opts.durationMs ?? 5000, warmupMs: opts.warmupMs ?? 1000 },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { count: number; errors: number; elapsed: number; latencies: number[] }) => {
      const sorted = Float64Array.from(m.latencies).sort();
      const pct = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] / 1e6 : NaN);
      resolve({ rps: m.count / m.elapsed, p50: pct(50), p99: pct(99), count: m.count, errors: m.errors });
      void worker.terminate();
    });
  });
}
