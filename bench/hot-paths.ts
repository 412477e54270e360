import type { LoadResult } from './http';
import type { InitialJs } from './initial-js';
import { machine, writeSection } from './report';

type HotPaths = {
  commonInfo: { healthz: LoadResult; api: LoadResult; toHealthz: number };
  coins: {
    healthz: LoadResult;
    api: LoadResult;
    trpc: LoadResult;
    apiGzip: LoadResult;
    trpcGzip: LoadResult;
    apiToHealthz: number;
    trpcToHealthz: number;
  };
  initialJs: InitialJs;
  initialBudget: number;
  charge: { ratio: number; cpuRatio: number };
  live: {
    perSubKiB: number;
    perSubRssKiB: number;
    bareRssKiB: number;
    broadcastP99: number;
    bareBroadcastP99: number;
    batchP99: number;
    bareBatchP99: number;
  };
};

/** Issue 26's goal for a visitor's first load (the test's budget, INITIAL_JS_BUDGET, holds what was reached). */
const INITIAL_JS_GOAL = 100 * 1024;

const ok = (met: boolean) => (met ? 'met' : '**missed**');
const f = (n: number, d = 2) => n.toFixed(d);

/** The table of issue 26 ("The hot paths"), every row from this one `npm run bench` run. */
export function writeHotPaths(h: HotPaths): void {
  const ci = h.commonInfo;
  const c = h.coins;
  const l = h.live;
  const broadcastRatio = l.broadcastP99 / l.bareBroadcastP99;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  writeSection(
    'hot_paths',
    `## The hot paths (issue 26), one run

${new Date().toISOString().slice(0, 10)} on ${machine()}. Every HTTP figure is a ratio to \`/healthz\` of the same process in the same run (wrk, one thread, 50 keep-alive connections); the sections below give the details of each row.

| path | this run | goal | |
|---|---|---|---|
| \`GET /api/get_common_info\` | ${f(ci.toHealthz)}× (${f(ci.api.rps, 0)} req/s, /healthz ${f(ci.healthz.rps, 0)}), p99 ${f(ci.api.p99)} ms; server CPU ${f(ci.api.cpuUsPerRequest, 0)} µs per request, /healthz ${f(ci.healthz.cpuUsPerRequest, 0)} µs | ≥ 0.5×, p99 < 20 ms | ${ok(ci.toHealthz >= 0.5 && ci.api.p99 < 20)} |
| \`GET /public_api/get_coins\` | ${f(c.apiToHealthz)}× (${f(c.api.rps, 0)} req/s, /healthz ${f(c.healthz.rps, 0)}), p99 ${f(c.api.p99)} ms; server CPU ${f(c.api.cpuUsPerRequest, 0)} µs per request, /healthz ${f(c.healthz.cpuUsPerRequest, 0)} µs | ≥ 0.6×, p99 < 10 ms | ${ok(c.apiToHealthz >= 0.6 && c.api.p99 < 10)} |
| \`/trpc/coins.get_coins\` | ${f(c.trpcToHealthz)}× (${f(c.trpc.rps, 0)} req/s), p99 ${f(c.trpc.p99)} ms; server CPU ${f(c.trpc.cpuUsPerRequest, 0)} µs per request | ≥ 0.6×, p99 < 10 ms | ${ok(c.trpcToHealthz >= 0.6 && c.trpc.p99 < 10)} |
| the same two, asked as a browser asks (\`Accept-Encoding: gzip\`; not the issue's measure) | REST ${f(c.apiGzip.rps / c.healthz.rps)}× (${f(c.apiGzip.rps, 0)} req/s), p99 ${f(c.apiGzip.p99)} ms, ${f(c.apiGzip.cpuUsPerRequest, 0)} µs; tRPC ${f(c.trpcGzip.rps / c.healthz.rps)}× (${f(c.trpcGzip.rps, 0)} req/s), p99 ${f(c.trpcGzip.p99)} ms, ${f(c.trpcGzip.cpuUsPerRequest, 0)} µs | ≥ 0.6×, p99 < 10 ms | ${ok(c.apiGzip.rps / c.healthz.rps >= 0.6 && c.apiGzip.p99 < 10 && c.trpcGzip.rps / c.healthz.rps >= 0.6 && c.trpcGzip.p99 < 10)} |
| live fan-out, memory | ${f(l.perSubKiB, 1)} KiB JS heap per subscription (RSS ${f(l.perSubRssKiB, 1)} KiB; bare \`ws\` RSS ${f(l.bareRssKiB, 1)} KiB) | ≤ 8 KiB | ${ok(l.perSubKiB <= 8)} |
| live fan-out, one event to all | p99 ${f(l.broadcastP99, 0)} ms, bare \`ws\` ${f(l.bareBroadcastP99, 0)} ms (${f(broadcastRatio)}×); one event per user in one transaction ${f(l.batchP99, 0)} ms vs ${f(l.bareBatchP99, 0)} ms | p99 ≤ 1.2× bare \`ws\` | ${ok(broadcastRatio <= 1.2)} |
| daily charge, bare UPDATE = 1 | ${f(h.charge.ratio, 1)}× (CPU time ${f(h.charge.cpuRatio, 1)}×) | ≤ 2× | ${ok(h.charge.ratio <= 2)} |
| visitor's initial JS, gzipped | ${kb(h.initialJs.firstViewGzip)} (entry ${kb(h.initialJs.initialGzip)}; test budget ${kb(h.initialBudget)}); as the server now sends it to a browser, brotli: ${kb(h.initialJs.firstViewBrotli)} | ≤ ${kb(INITIAL_JS_GOAL)} | ${ok(h.initialJs.firstViewGzip <= INITIAL_JS_GOAL)} |`,
  );
}
