import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { load, loadGenerator, type LoadResult } from './http';

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
  `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.count} |`;
export const TABLE_HEAD = '| route | requests/s | p50 ms | p99 ms | requests |\n|---|---|---|---|---|';

export { load, loadGenerator };
