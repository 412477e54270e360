import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { getAlertSettings } from '../../src/server/notifications/alert-settings';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { insertTestNode } from '../support/nodes';
import { freshUser } from '../support/users';
import { at, browserSession, fitsViewport, logInLive, screenshot } from './browser';

// The per-node alerts switch on the node page and the quiet hours on the notification
// settings page, in Chromium at phone width against the real server and its SQLite file.
// The browser runs in India's time zone (UTC+5:30), so the local times shown differ from
// UTC by a half hour and cannot pass by accident. Run `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
});
afterEach(() => session.assertNoPageErrors());
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

const phonePage = () => session.newPage(390, undefined, 'Asia/Kolkata');

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).locator('.toast', { hasText: text });
const settings = (userId: number) => getAlertSettings(server.deps.db, userId);
const PROCEDURE = (name: string) => `**/trpc/*${name}*`;

/** Holds every call of the procedure until the returned release is called, so the test sees the page while the save is out. */
async function holdCalls(page: Page, name: string): Promise<() => Promise<void>> {
  const held: Route[] = [];
  await page.route(PROCEDURE(name), (route) => void held.push(route));
  return async () => {
    await expect.poll(() => held.length).toBeGreaterThan(0);
    for (const r of held.splice(0)) await r.continue();
    await page.unroute(PROCEDURE(name));
  };
}

/** Every call of the procedure the page sends from now on. */
function callsTo(page: Page, name: string): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/trpc/') && r.url().includes(name)) seen.push(r.url());
  });
  return seen;
}

describe('alerts of one node', () => {
  it(
    'mutes the node from its page (the switch waits while saving), survives a reload, puts back the state on a failed save, and unmutes',
    { timeout: 90_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'e2emute', login: false });
      const mn = `mute${Date.now().toString(36)}`;
      await insertTestNode(server.deps.db, { mn_id: mn, user_id: user.id, coin_id: 'dash', status: 'running' });
      // Another of the user's nodes stays unmuted whatever happens to this one.
      const other = `${mn}b`;
      await insertTestNode(server.deps.db, { mn_id: other, user_id: user.id, coin_id: 'dash', status: 'running' });

      const page = await phonePage();
      await logInLive(page, user);
      const card = page.getByRole('region', { name: 'Alerts', exact: true });
      const sw = card.getByRole('switch', { name: 'Alerts for this node' });

      // The setting cannot be read: the card says so and offers to try again; the rest of the page is there.
      await page.route(PROCEDURE('notifications.get_alert_settings'), (route) => route.abort('connectionfailed'));
      await page.goto(`/dashboard/masternode/${mn}`);
      await card
        .getByRole('alert')
        .filter({ hasText: "This node's alert setting could not be loaded" })
        .waitFor({ timeout: 20_000 });
      expect(await sw.count()).toBe(0);
      await page.getByRole('region', { name: 'Hosting details' }).waitFor();
      await page.unroute(PROCEDURE('notifications.get_alert_settings'));
      await card.getByRole('button', { name: 'Try again' }).click();
      await sw.waitFor();
      expect(await sw.isChecked()).toBe(true);
      await card
        .getByText(
          'On. Turn off to mute this node: it then sends no down/up, network status, action or reward notifications.',
        )
        .waitFor();

      // Turn off: the switch shows the choice at once and ignores clicks until the server answered.
      const release = await holdCalls(page, 'nodes.set_alerts_muted');
      await sw.click();
      expect(await sw.isChecked()).toBe(false);
      expect(await sw.getAttribute('aria-disabled')).toBe('true');
      // Playwright refuses to click an aria-disabled control; a user's click still lands.
      await sw.click({ force: true });
      expect(await sw.isChecked()).toBe(false);
      await release();
      await toast(page, 'Saved').first().waitFor();
      expect(await sw.getAttribute('aria-disabled')).toBe('false');
      expect((await settings(user.id)).muted_nodes).toEqual([mn]);
      await card
        .getByText('Muted: this node sends no down/up, network status, action or reward notifications.')
        .waitFor();
      expect(await fitsViewport(page)).toBe(true);
      await screenshot(page, 'node-alerts-muted-390');

      await page.reload();
      await sw.waitFor();
      expect(await sw.isChecked()).toBe(false);

      // A save that does not reach the server: "Error", and the switch shows what the server holds.
      await page.route(PROCEDURE('nodes.set_alerts_muted'), (route) => route.abort('connectionfailed'));
      await sw.click();
      await toast(page, 'Error').first().waitFor();
      await expect.poll(() => sw.isChecked()).toBe(false);
      expect((await settings(user.id)).muted_nodes).toEqual([mn]);
      await page.unroute(PROCEDURE('nodes.set_alerts_muted'));

      await sw.click();
      await expect.poll(async () => (await settings(user.id)).muted_nodes).toEqual([]);
      expect(await sw.isChecked()).toBe(true);
      await page.reload();
      await sw.waitFor();
      expect(await sw.isChecked()).toBe(true);
      await page.context().close();

      // Someone else never sees the card: the node page of another user's node sends them to the dashboard.
      const stranger = await freshUser(server.deps, { prefix: 'e2estrange', login: false });
      const theirs = await phonePage();
      await logInLive(theirs, stranger);
      await theirs.goto(`/dashboard/masternode/${mn}`);
      await at(theirs, '/dashboard');
      expect(await theirs.getByRole('switch', { name: 'Alerts for this node' }).count()).toBe(0);
      await theirs.context().close();
    },
  );
});

describe('quiet hours', () => {
  it(
    'turns on quiet hours in UTC with the local times shown, refuses the same hour twice, shows a failed save, survives a reload and turns off',
    { timeout: 90_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'e2equiet', login: false });
      const page = await phonePage();
      await logInLive(page, user);
      await page.goto('/dashboard/notifications');
      const section = page.getByRole('region', { name: 'Quiet hours' });
      const state = section.getByTestId('quiet-hours-state');
      await expect.poll(() => state.textContent()).toBe('Quiet hours are off.');
      await section
        .getByText('Security emails (a new login, a password or two-factor change, a new API key) are never held.', {
          exact: false,
        })
        .waitFor();
      const use = section.getByLabel('Use quiet hours');
      expect(await use.isChecked()).toBe(false);
      expect(await section.getByLabel('From (UTC)').count()).toBe(0);

      await use.check();
      const from = section.getByLabel('From (UTC)');
      const until = section.getByLabel('Until (UTC)');
      expect(await from.inputValue()).toBe('22');
      expect(await until.inputValue()).toBe('7');
      // UTC+5:30: 22:00 UTC is 03:30 there, 07:00 UTC is 12:30.
      expect(await section.getByTestId('quiet-hours-local').textContent()).toMatch(
        /^In your time zone \(Asia\/(Kolkata|Calcutta)\) that is 03:30 to 12:30\.$/,
      );
      await section.getByText('Your time: 03:30').waitFor();

      // The same hour twice is refused by the form with the server's words; nothing is sent.
      const saves = callsTo(page, 'notifications.save_quiet_hours');
      await until.selectOption({ label: '22:00' });
      await section.getByRole('button', { name: 'Save' }).click();
      await section.getByText('The start and end hour must differ.').waitFor();
      expect(await until.getAttribute('aria-invalid')).toBe('true');
      expect(saves).toEqual([]);
      expect((await settings(user.id)).quiet_hours).toBeNull();

      // A save that does not reach the server is reported, and nothing is stored.
      await until.selectOption({ label: '06:00' });
      await page.route(PROCEDURE('notifications.save_quiet_hours'), (route) => route.abort('connectionfailed'));
      await section.getByRole('button', { name: 'Save' }).click();
      await section
        .getByRole('alert')
        .getByText('Your quiet hours were not saved: Cannot reach the server.', { exact: false })
        .waitFor();
      await toast(page, 'Error').first().waitFor();
      await page.unroute(PROCEDURE('notifications.save_quiet_hours'));
      expect((await settings(user.id)).quiet_hours).toBeNull();

      await section.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Saved').first().waitFor();
      await expect.poll(() => state.textContent()).toBe('Quiet hours are on, from 22:00 to 06:00 UTC.');
      expect((await settings(user.id)).quiet_hours).toEqual({ start_hour: 22, end_hour: 6 });
      expect(await section.getByRole('alert').count()).toBe(0);
      expect(await fitsViewport(page)).toBe(true);
      await screenshot(page, 'quiet-hours-on-390');

      await page.reload();
      await expect.poll(() => state.textContent()).toBe('Quiet hours are on, from 22:00 to 06:00 UTC.');
      expect(await use.isChecked()).toBe(true);
      expect(await from.inputValue()).toBe('22');
      expect(await until.inputValue()).toBe('6');
      expect(await section.getByTestId('quiet-hours-local').textContent()).toMatch(/that is 03:30 to 11:30\.$/);

      await use.uncheck();
      expect(await from.count()).toBe(0);
      await section.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => state.textContent()).toBe('Quiet hours are off.');
      expect((await settings(user.id)).quiet_hours).toBeNull();
      await page.reload();
      await expect.poll(() => state.textContent()).toBe('Quiet hours are off.');
      expect(await use.isChecked()).toBe(false);
      await page.context().close();
    },
  );
});
