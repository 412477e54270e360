import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';

// The /dashboard/api page in Chromium against the real server. Run `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('API page', () => {
  it(
    'creates a key shown once, edits its allowed list (a bad entry is named), deletes it',
    { timeout: 90_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'apipage', login: false });
      const page = await session.newPage();
      await logInLive(page, user);
      await page.goto('/dashboard/api');
      await page.getByText("You don't have any API keys").waitFor();

      // Add: the description is required.
      await page.getByRole('button', { name: 'Add API key' }).click();
      const add = page.getByRole('dialog', { name: 'Add API key' });
      await add.getByRole('button', { name: 'Create key' }).click();
      await add.getByText('Please enter a description.').first().waitFor();
      await add.getByLabel('Description').fill('backup script');
      await add.getByLabel('Allowed IP addresses').fill('127.0.0.1, 10.0.0.0/8');
      await add.getByRole('button', { name: 'Create key' }).click();

      // The whole key, once, with its copy button.
      const created = page.getByRole('dialog', { name: 'API key created' });
      const shown = (await created.locator('pre').first().innerText()).trim();
      expect(shown).toMatch(/^nk_[\w-]{8}_[\w-]{43}$/);
      // The header scripts send, with the key in it: nothing to fill in by hand.
      expect((await created.locator('pre').nth(1).innerText()).trim()).toBe(`Authorization: Bearer ${shown}`);
      await created.getByRole('button', { name: /^Copy API key/ }).waitFor();
      await screenshot(page, 'api-key-created', { fullPage: false });
      const rows = await server.deps.db.selectFrom('api_keys').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(shown.slice(12));
      await created.getByRole('button', { name: 'I have copied it' }).click();

      // The list holds its prefix only.
      const row = page.getByTestId('api-key-row');
      await row.getByText('backup script').waitFor();
      await row.getByText(`${shown.slice(0, 11)}_…`).waitFor();
      expect(await page.content()).not.toContain(shown.slice(12));
      await row.getByText('127.0.0.1, 10.0.0.0/8').waitFor();

      // The key works from here (127.0.0.1).
      const res = await fetch(`${server.url}/api/get_masternodes`, { headers: { authorization: `Bearer ${shown}` } });
      expect(res.status).toBe(200);

      // Manage: a bad entry is named and nothing changes; a good list is saved.
      await row.getByRole('button', { name: 'Manage' }).click();
      const manage = page.getByRole('dialog', { name: 'Manage API key' });
      await manage.getByLabel('Allowed IP addresses').fill('127.0.0.1, 10.0.0.300');
      await manage.getByRole('button', { name: 'Save' }).click();
      await manage
        .getByText(/"10\.0\.0\.300" is not an IP address or CIDR range/)
        .first()
        .waitFor();
      expect((await server.deps.db.selectFrom('api_keys').select('allowed').executeTakeFirstOrThrow()).allowed).toBe(
        '127.0.0.1,10.0.0.0/8',
      );
      await manage.getByLabel('Allowed IP addresses').fill('192.0.2.1');
      await manage.getByLabel(/Read only/).check();
      await manage.getByRole('button', { name: 'Save' }).click();
      await manage.waitFor({ state: 'detached' });
      await row.getByText('192.0.2.1').waitFor();
      await row.getByText('Read only').waitFor();
      expect(
        (await fetch(`${server.url}/api/get_masternodes`, { headers: { authorization: `Bearer ${shown}` } })).status,
      ).toBe(403);

      // Delete: asked first, naming the key; Cancel keeps it.
      const keysBefore = await server.deps.db.selectFrom('api_keys').selectAll().execute();
      expect(keysBefore).toHaveLength(1);
      await row.getByRole('button', { name: 'Delete' }).click();
      const del = page.getByRole('dialog', { name: 'Delete API key' });
      expect(await del.getByTestId('confirm-effect').innerText()).toContain(`${keysBefore[0].key_prefix}_…)`);
      await del.getByRole('button', { name: 'Cancel' }).click();
      await del.waitFor({ state: 'detached' });
      expect(await server.deps.db.selectFrom('api_keys').selectAll().execute()).toEqual(keysBefore);
      await row.getByRole('button', { name: 'Delete' }).click();
      await del.getByRole('button', { name: 'Delete' }).click();
      await page.getByText("You don't have any API keys").waitFor();
      expect(await server.deps.db.selectFrom('api_keys').selectAll().execute()).toEqual([]);
      expect(
        (await fetch(`${server.url}/api/get_masternodes`, { headers: { authorization: `Bearer ${shown}` } })).status,
      ).toBe(401);
    },
  );
});
