import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import { loopback } from './from-ip';
import { CALL_BUDGETS } from '../../src/server/guards/call-budget';
import { MAX_BATCH_CALLS } from '../../src/server/http/trpc-http';

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
 * An account's script holding every call its budget lets it run at once (guards/call-
 * budget.ts `inFlight`, 100): tRPC batches of 20 calls whose bodies never come. The
 * budget counts a batch's calls from its address, before the body is read; meanwhile
 * each other call of the account is refused, and nothing spins. The server gives up on
 * a body after REQUEST_TIMEOUT_MS (20 s) and checks every 2 s: the batches are then sent
 * again, and the hold resumes about a second later (measured: 21.1–22.8 s after it
 * began), so a test using it should be done in 20 s. `held` resolves once every batch is
 * in and a call of the account was refused, and fails if calls pass for 5 s.
 */
export function holdCallBudget(baseUrl: string, token: string) {
  const u = new URL(baseUrl);
  let released = false;
  let lastOpened = Date.now();
  const open = (): http.ClientRequest => {
    lastOpened = Date.now();
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path: `/trpc/${Array(MAX_BATCH_CALLS).fill('auth.visited').join(',')}?batch=1`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '1000' },
      agent: false,
    });
    req.on('error', () => {}); // destroyed by release(), or by the server's timeout
    req.on('close', () => {
      if (!released) requests[requests.indexOf(req)] = open();
    });
    req.flushHeaders();
    return req;
  };
  const requests = Array.from({ length: CALL_BUDGETS.account.inFlight / MAX_BATCH_CALLS }, open);
  // Held once every batch has been out for longer than a refusal's pause (REFUSAL_PAUSE_MS,
  // 1 s): a batch refused because the account's page still had calls out is answered
  // after that pause and sent again, so one still out after it was let in. Then a call
  // of the account must be refused. A call that passes is asked again a moment later.
  const held = (async () => {
    for (let passed = 0; passed < 50;) {
      const r = await fetch(`${baseUrl}/api/get_balance`, { headers: { authorization: `Bearer ${token}` } });
      await r.arrayBuffer();
      if (r.status === 429) {
        if (Date.now() - lastOpened > 2500) return;
        continue;
      }
      passed++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('calls of the account passed for 5 s: the budget is not held');
  })();
  return {
    held,
    release: () => {
      released = true;
      requests.forEach((r) => r.destroy());
    },
  };
}
