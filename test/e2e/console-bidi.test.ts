import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { insertTestNode } from '../support/nodes';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser, type FreshUser } from '../support/users';
import { at, Authenticator, browserSession, logInWithCode, screenshot } from './browser';

// A right-to-left override in customer text (a chat message "\u202Eevil" reads "live")
// is shown in the operator console as its visible escape, never applied. Chromium against
// the real server (built client in dist/client: run `npm run build` first).

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'rlo' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

/** The text the console's main area renders (what the operator reads). */
const mainText = (page: Page) => page.locator('main').innerText();
const RAW_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('bidi controls in the console', () => {
  it(
    'a chat message and a node alias holding U+202E show the escape, not reversed text',
    { timeout: 120_000 },
    async () => {
      await callerFor(server.deps)(customer.token).support.send({ body: 'Please refund \u202Eevil' });
      // Aliases typed today allow letters only; one stored earlier may hold anything.
      await insertTestNode(server.deps.db, {
        mn_id: `mn-rlo-${customer.id}`,
        user_id: customer.id,
        coin_id: 'dash',
        alias: 'a\u202Egnp.exe',
      });

      const page = await session.newPage();
      await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
      await page.goto('/console/support');
      await page.getByRole('button', { name: new RegExp(customer.username) }).click();
      const thread = page.getByRole('log', { name: `Conversation with ${customer.username}` });
      await thread.getByText('Please refund \\u202eevil').waitFor();
      expect(await thread.locator('.bidi-escape').allInnerTexts()).toEqual(['\\u202e']);
      // The inbox's preview of the newest message too.
      await page.locator('.support-inbox-last', { hasText: 'Please refund \\u202eevil' }).waitFor();
      expect(await mainText(page)).not.toMatch(RAW_BIDI);
      await screenshot(page, 'console-bidi-support');

      await page.goto(`/console/customers/${customer.id}`);
      await at(page, `/console/customers/${customer.id}`);
      await page.getByRole('cell', { name: /a\\u202egnp\.exe/ }).waitFor();
      await page.getByText('Please refund \\u202eevil').waitFor();
      expect(await mainText(page)).not.toMatch(RAW_BIDI);
      expect(await page.locator('main .bidi-escape').count()).toBe(2);
    },
  );
});
