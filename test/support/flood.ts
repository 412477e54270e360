import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import { loopback } from './from-ip';

export type Flood = { statuses: Record<number, number>; limitedWithRetryAfter: number };
type Probe = { answers: Array<Array<{ status: number; ms: number }>> };
type Latency = { n: number; p50: number; p99: number; max: number; allOk: boolean };

/** Runs one job of http-load.mjs in a worker thread, off the server's event loop. */
export function inWorker<T>(job: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./http-load.mjs', import.meta.url), { workerData: job });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

function latency(answers: Array<{ status: number; ms: number }>): Latency {
  const ms = answers.map((a) => a.ms);
  return {
    n: ms.length,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    max: Math.max(...ms),
    allOk: answers.every((a) => a.status === 200),
  };
}

/**
 * Runs `flood` (an http-load.mjs flood job) for `durationMs` while /healthz is probed from
 * one address and a signed-in customer loads a page (one batch of three calls, as the
 * browser sends it) from another, and says how each fared.
 */
export async function floodWithProbes(
  baseUrl: string,
  flood: Record<string, unknown>,
  customerToken: string,
  durationMs: number,
): Promise<{ flood: Flood; healthz: Latency; page: Latency }> {
  const page = `${baseUrl}/trpc/auth.get_common_info,nodes.get_masternodes,billing.get_balance?batch=1&input=${encodeURIComponent('{}')}`;
  const probe = (ip: string, request: { url: string; headers?: Record<string, string> }, pauseMs: number) =>
    inWorker<Probe>({ kind: 'probe', ip, requests: [request], durationMs, pauseMs });
  const [flooded, health, pageLoads] = await Promise.all([
    inWorker<Flood>({ kind: 'flood', durationMs, ...flood }),
    probe(loopback(2), { url: `${baseUrl}/healthz` }, 20),
    probe(loopback(3), { url: page, headers: { authorization: `Bearer ${customerToken}` } }, 200),
  ]);
  return { flood: flooded, healthz: latency(health.answers[0]), page: latency(pageLoads.answers[0]) };
}

/** The flood met the budget: refused with Retry-After (every 429 carried it), some calls still served. */
export function expectFloodMetBudget(flood: Flood) {
  expect(flood.statuses[429]).toBeGreaterThan(0);
  expect(flood.limitedWithRetryAfter).toBe(flood.statuses[429]);
  expect(flood.statuses[200]).toBeGreaterThan(0);
  expect(Object.keys(flood.statuses).sort()).toEqual(['200', '429']);
}

/**
 * An account's script that spends every call its budget gives (guards/call-budget.ts)
 * until `stop()`: 40 callers, more than the refusals the server answers after a pause
 * (MAX_PAUSED_REFUSALS), so some always ask again at once and take each call the budget
 * refills. `spent` resolves once the budget refused one of them.
 */
export function spendCallBudget(baseUrl: string, token: string) {
  let running = true;
  let refusedOnce: () => void = () => {};
  const spent = new Promise<void>((resolve) => (refusedOnce = resolve));
  const callers = Promise.all(
    Array.from({ length: 40 }, async () => {
      while (running) {
        const r = await fetch(`${baseUrl}/api/get_balance`, { headers: { authorization: `Bearer ${token}` } });
        await r.arrayBuffer();
        if (r.status === 429) refusedOnce();
      }
    }),
  );
  return {
    spent,
    stop: async () => {
      running = false;
      await callers;
    },
  };
}
