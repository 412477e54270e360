import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageQuery, queryBool } from '../src/shared/schemas/common';
import { createContext } from '../src/server/rpc/context';
import { withRouteTable } from '../src/server/http/api-docs';
import { ResponseCache } from '../src/server/http/response-cache';
import { mountApiFallback, mountRest } from '../src/server/http/rest';
import { restRoutes } from '../src/server/http/routes';
import { appRouter } from '../src/server/router';
import { createCallerFactory, publicProcedure, router } from '../src/server/rpc/trpc';
import { makeDeps, type Deps } from './support/caller';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

// The routes the spec names (platform-and-account.md section 7) plus the status call:
// none may fall out of the declarations.
const SPEC_ROUTES = [
  'POST /public_api/login',
  'POST /public_api/register',
  'POST /public_api/recover',
  'POST /public_api/reset',
  'POST /public_api/check_reset_token',
  'POST /public_api/verify',
  'GET /public_api/status',
  'GET /public_api/get_coins',
  'GET /public_api/get_coin',
  'GET /public_api/get_stats',
  'GET /public_api/get_detailed',
  'GET /api/get_deploy_info',
  'POST /api/deploy_server',
  'POST /api/deploy_server multipart',
  'POST /api/check_burn',
  'GET /api/get_building_servers',
  'GET /api/get_proposals',
  'POST /api/delete_masternode',
  'POST /api/update_alias',
  'POST /api/update_validator_fee',
  'POST /api/register_submit',
  'POST /api/quick_setup',
  'GET /api/get_masternodes',
  'GET /api/get_masternode',
  'GET /api/get_rewards',
  'GET /api/get_common_info',
  'GET /api/get_tfa',
  'POST /api/logout',
  'POST /api/update_tfa',
  'POST /api/change_password',
  'POST /api/resend_verification_email',
  'POST /api/visited',
  'GET /api/get_notifications',
  'POST /api/clear_notifications',
  'GET /api/get_notification_settings',
  'POST /api/save_notification_settings',
  'GET /api/get_api_keys',
  'POST /api/create_api_key',
  'POST /api/save_api_key',
  'POST /api/delete_api_key',
  // Billing (issue 10).
  'GET /api/get_balance',
  'GET /api/get_transactions',
  // Beyond the spec (issue 24): the history as CSV and a monthly statement.
  'GET /api/export_transactions',
  'GET /api/get_statement',
  'GET /api/get_alt_payments',
  'POST /api/generate_wallet',
  // Beyond the spec (src/server/notifications/README.md).
  'GET /api/get_alert_channels',
  'POST /api/add_alert_channel',
  'POST /api/save_alert_channel',
  'POST /api/delete_alert_channel',
  'POST /api/test_alert_channel',
  // Beyond the spec (issue 9 alerts): per-node mute and quiet hours.
  'POST /api/mute_node_alerts',
  'GET /api/get_node_log',
  'POST /api/restart_node',
  'GET /api/get_alert_settings',
  'POST /api/save_quiet_hours',
  // Card payments and gift codes (issue 10); resume_stripe is beyond the spec (docs/decisions.md "Readings of the spec").
  'POST /api/credit_card',
  'POST /api/resume_stripe',
  'POST /api/cancel_stripe',
  'POST /api/redeem_coupon',
  // Referrals (issue 10).
  'GET /api/get_referrals',
  'GET /api/get_ref_infos',
  // Beyond the spec (issue 24): validators' kept slashing-protection files, exit and the demo's deposit.
  'GET /api/removed_validators',
  'GET /api/slashing_protection_file',
  'POST /api/exit_validator',
  'POST /api/simulate_deposit',
];

describe('one declaration per REST route', () => {
  const routes = restRoutes(appRouter);

  it('every spec route is declared on its procedure, once', () => {
    expect(routes.map((r) => `${r.method} ${r.path}${r.multipart ? ' multipart' : ''}`).sort()).toEqual(
      [...SPEC_ROUTES].sort(),
    );
  });

  it('GET /api/openapi.json is a valid OpenAPI 3.1 document listing every REST route', async () => {
    const res = await fetch(`${s.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    for (const r of routes) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeTruthy();
      expect(op.responses['200'].content[r.csv ? 'text/csv' : 'application/json'].schema).toBeTruthy();
      expect(op.responses['4XX'].$ref).toBe('#/components/responses/Error');
      // Private calls carry bearer security; public ones none.
      expect(Boolean(op.security), r.path).toBe(r.path.startsWith('/api/'));
    }
    // Every path the server answers as a REST route is in the document, and no other.
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(routes.map((r) => r.path))].sort());
    expect(doc.components.schemas.Error).toMatchObject({
      properties: { success: { const: false }, message: { type: 'string' } },
    });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Request schemas come from the shared zod schemas.
    expect(doc.paths['/public_api/login'].post.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
    ]);
    expect(doc.paths['/public_api/get_coin'].get.parameters).toEqual([
      expect.objectContaining({ name: 'coin', in: 'query', required: true }),
    ]);
    expect(doc.paths['/api/get_masternodes'].get.security).toEqual([{ session: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/change_password'].post.security).toEqual([{ session: [] }]);
  });

  it('GET /api/docs renders every route for script authors, loading nothing from elsewhere and running no script', async () => {
    const res = await fetch(`${s.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    for (const r of routes) expect(html).toContain(`<code>${r.path}</code>`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
    const css = html.match(/<link rel="stylesheet" href="([^"]+)"/)![1];
    expect(css.startsWith('/')).toBe(true);
    const sheet = await fetch(s.url + css);
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get('content-type')).toMatch(/text\/css/);
    expect(await sheet.text()).not.toMatch(/url\(|@import/);
  });

  it('docs/api.md is current (run `npm run docs:api` after changing a route)', () => {
    const committed = fs.readFileSync('docs/api.md', 'utf8');
    expect(withRouteTable(committed, routes)).toBe(committed);
    for (const r of routes) expect(committed).toContain(`\`${r.method} ${r.path}\``);
  });
});

describe('GET query parameters are coerced by the shared schemas', () => {
  // A paginated list as the next issues will declare them, served by the real adapter.
  const items = Array.from({ length: 45 }, (_, i) => ({ n: i + 1, even: (i + 1) % 2 === 0 }));
  const listInput = pageQuery.extend({ even: queryBool.optional() });
  const testRouter = router({
    things: router({
      list: publicProcedure
        .meta({ rest: { method: 'GET', path: '/public_api/list_things', summary: 'a page of things' } })
        .input(listInput)
        .output(
          z.object({
            page: z.number(),
            per_page: z.number(),
            items: z.array(z.object({ n: z.number(), even: z.boolean() })),
          }),
        )
        .query(({ input }) => {
          const all = input.even === undefined ? items : items.filter((x) => x.even === input.even);
          return {
            page: input.page,
            per_page: input.per_page,
            items: all.slice((input.page - 1) * input.per_page, input.page * input.per_page),
          };
        }),
    }),
  });
  let d: Deps;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    d = await makeDeps();
    const app = new Hono();
    const routes = mountRest(
      app,
      testRouter,
      (c) => createContext(d.deps, { remoteAddress: '127.0.0.1', header: (n) => c.req.header(n) }),
      new ResponseCache(),
      () => true,
    );
    mountApiFallback(app, routes);
    server = await new Promise<Server>((resolve) => {
      const srv = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(srv as Server));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await d.close();
  });

  it('a page asked over REST (strings) answers what tRPC (numbers) answers', async () => {
    const caller = createCallerFactory(testRouter)(
      createContext(d.deps, { remoteAddress: '127.0.0.1', header: () => undefined }),
    );
    const rest = await fetch(`${url}/public_api/list_things?page=2&per_page=10&even=false`).then((r) => r.json());
    const trpc = await caller.things.list({ page: 2, per_page: 10, even: false });
    expect(rest).toEqual(trpc);
    expect(rest.items.map((x: { n: number }) => x.n)).toEqual([21, 23, 25, 27, 29, 31, 33, 35, 37, 39]);
    // Defaults apply the same way.
    expect(await fetch(`${url}/public_api/list_things`).then((r) => r.json())).toEqual(await caller.things.list({}));
  });

  it('a bad number or boolean is a clear 400 that names the parameter', async () => {
    for (const [q, field] of [
      ['page=two', /page: must be a whole number/],
      ['page=0', /page: must be 1 or more/],
      ['per_page=1000', /per_page: must be 1-100/],
      ['page=1.5', /page: must be a whole number/],
      ['even=maybe', /even/],
    ] as const) {
      const res = await fetch(`${url}/public_api/list_things?${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).message).toMatch(field);
    }
  });
});
