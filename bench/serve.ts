import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { load, loadGenerator, type LoadResult } from './http';
import { CALL_BUDGETS } from '../src/server/guards/call-budget';
import { ADMISSION_POOLS } from '../src/server/guards/admission-pool';

/** A bare Hono route in this process, serving `body` as JSON: the yardstick for our routes. */
export async function bareRoute(body: unknown) {
  const text = JSON.stringify(body);
  const app = new Hono().get('/bare', (c) => c.body(text, 200, { 'content-type': 'application/json' }));
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/bare`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const row = (name: string, r: LoadResult) =>
  `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.count} | ${Number.isNaN(r.cpuUsPerRequest) ? '–' : r.cpuUsPerRequest.toFixed(0)} |`;
export const TABLE_HEAD =
  '| route | requests/s | p50 ms | p99 ms | requests | server CPU µs per request |\n|---|---|---|---|---|---|';

export { load, loadGenerator };

/**
 * One client driving 50 connections is a flood to the call budgets (issue 21): 10 calls
 * a second per account or address. The hot-path benchmarks measure the route, so they
 * lift the rates (and one payer's share of its admission line) in this process while
 * they run; the budget's own work (its token lookup, its buckets, the admission pools
 * and their concurrency) still runs on every request.
 */
export function liftCallRates(): () => void {
  const saved = Object.entries(CALL_BUDGETS).map(([k, r]) => [k, { ...r }] as const);
  const savedPools = Object.entries(ADMISSION_POOLS).map(([k, r]) => [k, { ...r }] as const);
  for (const rule of Object.values(CALL_BUDGETS)) {
    rule.burst = 1e9;
    rule.perSecond = 1e9;
  }
  // One address's share of the guests' line (40 waiting) is less than wrk's 50 connections.
  for (const pool of Object.values(ADMISSION_POOLS)) pool.waitCallsPerPayer = pool.waitCalls;
  return () => {
    for (const [k, r] of saved) Object.assign(CALL_BUDGETS[k as keyof typeof CALL_BUDGETS], r);
    for (const [k, r] of savedPools) Object.assign(ADMISSION_POOLS[k as keyof typeof ADMISSION_POOLS], r);
  };
}
