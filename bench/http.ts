import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';

/**
 * `cpuUsPerRequest`: this process's CPU time (user + system) during the timed run over the
 * requests answered. The server runs in the benchmark's process and wrk in its own, so it
 * is the server's cost per request, which a machine shared with other work moves far less
 * than requests per second (NaN with the Node load generator, a thread of this process).
 */
export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
  cpuUsPerRequest: number;
};
type LoadOptions = { headers?: Record<string, string>; concurrency?: number; durationMs?: number; warmupMs?: number };

const WRK = '/usr/bin/wrk';

/** Which load generator `load()` uses: Debian's wrk when installed, else a Node worker thread. */
export const loadGenerator = existsSync(WRK) ? 'wrk (one thread, a separate process)' : 'a Node worker thread';

/**
 * Drives GET `url` with `concurrency` requests in flight. wrk is preferred: a Node load
 * generator saturates before the server does, so the ratios would measure it instead.
 */
export function load(url: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return existsSync(WRK) ? loadWithWrk(url, opts) : loadWithWorker(url, opts);
}

const run = promisify(execFile);

/** "1.06ms", "850.00us", "1.20s" → milliseconds. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

async function loadWithWrk(url: string, opts: LoadOptions): Promise<LoadResult> {
  const headerArgs = Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const base = ['-t1', `-c${opts.concurrency ?? 50}`, '--latency', ...headerArgs];
  const warmup = Math.max(1, Math.round((opts.warmupMs ?? 1000) / 1000));
  await run(WRK, [...base, `-d${warmup}s`, url]);
  const cpu0 = process.cpuUsage();
  const { stdout } = await run(WRK, [...base, `-d${Math.max(1, Math.round((opts.durationMs ?? 5000) / 1000))}s`, url]);
  const cpu = process.cpuUsage(cpu0);
  const count = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
    p50: ms(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    count,
    errors,
    cpuUsPerRequest: (cpu.user + cpu.system) / count,
  };
}

function loadWithWorker(url: string, opts: LoadOptions): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: {
      url,
      headers: opts.headers ?? {},
      concurrency: opts.concurrency ?? 50,
      durationMs: opts.durationMs ?? 5000,
      warmupMs: opts.warmupMs ?? 1000,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { count: number; errors: number; elapsed: number; latencies: number[] }) => {
      const sorted = Float64Array.from(m.latencies).sort();
      const pct = (p: number) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] / 1e6 : NaN;
      resolve({
        rps: m.count / m.elapsed,
        p50: pct(50),
        p99: pct(99),
        count: m.count,
        errors: m.errors,
        cpuUsPerRequest: NaN,
      });
      void worker.terminate();
    });
  });
}
