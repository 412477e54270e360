import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { emailSettings, renderNotification } from '../../src/shared/notification-kinds';
import { afterRaise, raise } from '../../src/server/notifications/raise';
import { getNotificationSettings } from '../../src/server/notifications/settings';
import { getNotifications } from '../../src/server/notifications/service';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { startSmtp } from '../support/smtp';
import { freshUser, type FreshUser } from '../support/users';
import { at, browserSession, fitsViewport, screenshot, logInLive } from './browser';

// The notification menu, the live toast and the notification settings page in a real
// browser against the real server (SQLite, SMTP on loopback). Run `npm run build` first.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url });
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await smtp?.close();
});

const EMPTY_TEXT = "You don't have any notifications :(";
const TOAST_MS = 5_000;

/** The user's open notifications as the server holds them. */
async function serverList(user: FreshUser) {
  return (await getNotifications(server.deps, user.id)).notifications;
}

/**
 * A verified user who has never logged in: the browser's login is their first, so it
 * raises no "new login" notice (that needs an earlier login from another address).
 */
const newUser = (prefix: string) => freshUser(server.deps, { prefix, login: false });

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications( \(\d+\))?$/ });
const menu = (page: Page) => page.getByRole('region', { name: 'Notification list' });
const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).locator('.toast', { hasText: text });

describe('notification menu and toasts', () => {
  it(
    'shows a raised notification as a sticky toast and in the menu with its count; clear empties it',
    { timeout: 90_000 },
    async () => {
      const user = await newUser('nmenu');
      const page = await session.newPage();
      await logInLive(page, user);

      // Nothing yet: no badge, the exact empty text.
      await bell(page).click();
      await menu(page).getByText(EMPTY_TEXT, { exact: true }).waitFor();
      expect(await page.getByTestId('notification-count').count()).toBe(0);
      await page.keyboard.press('Escape');

      // The toasts' staying is proven on the page's clock, installed before they show (so
      // their timers, if they had any, would be the clock's) and moved past the ordinary 5 s.
      await page.clock.install();

      // A real trigger: the password changed through the settings page.
      const newPassword = 'changed-secret-2';
      await page.goto('/dashboard/settings');
      await page.getByLabel('Current password', { exact: true }).fill(user.password);
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      const changed = renderNotification('password_changed', {}).message;
      await toast(page, changed).waitFor();
      await page.getByRole('button', { name: 'Notifications (1)', exact: true }).waitFor();
      expect(await page.getByTestId('notification-count').textContent()).toBe('1');

      // A second kind raised by the server (as the fleet's monitor would).
      const down = { mn_id: 'dash-e2e0000001', coin: 'Dash', alias: 'garage' };
      await raise(server.deps.db, user.id, 'node_down', down);
      afterRaise(server.deps);
      const downText = renderNotification('node_down', down).message;
      await toast(page, downText).waitFor();
      await page.getByRole('button', { name: 'Notifications (2)', exact: true }).waitFor();
      expect(await page.getByTestId('notification-count').textContent()).toBe('2');

      // The toasts outlive the ordinary five seconds: they stay until closed.
      await page.clock.runFor(TOAST_MS + 1_000);
      expect(await toast(page, changed).count()).toBe(1);
      expect(await toast(page, downText).count()).toBe(1);
      await screenshot(page, 'notifications-toasts', { fullPage: false });
      await toast(page, changed).getByRole('button', { name: 'Dismiss' }).click();
      expect(await toast(page, changed).count()).toBe(0);

      // The menu: newest first, each with its icon, link and hour.
      await bell(page).click();
      const rows = menu(page).locator('li');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).locator('.notification-message').textContent()).toBe(downText);
      expect(await rows.nth(0).locator('[data-icon]').getAttribute('data-icon')).toBe('down');
      expect(await rows.nth(0).locator('svg').count()).toBe(1);
      expect(await rows.nth(0).getByRole('link').getAttribute('href')).toBe('/dashboard/masternode/dash-e2e0000001');
      expect(await rows.nth(1).locator('.notification-message').textContent()).toBe(changed);
      expect(await rows.nth(1).locator('[data-icon]').getAttribute('data-icon')).toBe('shield');
      const time = rows.nth(1).locator('time');
      expect(await time.textContent()).toMatch(/^\d{2}:\d{2}$/);
      const raisedAt = Date.parse((await time.getAttribute('datetime'))!);
      expect(Math.abs(Date.now() - raisedAt)).toBeLessThan(5 * 60_000);
      await screenshot(page, 'notifications-menu', { fullPage: false });

      // A row's link goes to its page and closes the menu.
      await rows.nth(1).getByRole('link').click();
      await at(page, '/dashboard/settings');
      expect(await menu(page).count()).toBe(0);

      // A second tab of the same login follows the clear made in the first one.
      const other = await page.context().newPage();
      await other.goto('/dashboard');
      await other.getByRole('button', { name: 'Notifications (2)', exact: true }).waitFor();

      await bell(page).click();
      await menu(page).getByRole('button', { name: 'Clear' }).click();
      await menu(page).getByText(EMPTY_TEXT, { exact: true }).waitFor();
      expect(await page.getByTestId('notification-count').count()).toBe(0);
      expect(await serverList(user)).toEqual([]);
      await other.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

      // Cleared on the server: a reload shows it empty too.
      await page.reload();
      await bell(page).click();
      await menu(page).getByText(EMPTY_TEXT, { exact: true }).waitFor();
      expect(await menu(page).getByRole('button', { name: 'Clear' }).isDisabled()).toBe(true);
      await page.context().close();
    },
  );

  it(
    'fits phone screens: the menu, its rows and the toasts stay inside 390 and 320 px',
    { timeout: 90_000 },
    async () => {
      const user = await newUser('nphone');
      await raise(server.deps.db, user.id, 'node_destroyed_unpaid', {
        mn_id: 'dash-verylongnodeidentifier0123456789',
        coin: 'Dash',
        alias: null,
      });
      await raise(server.deps.db, user.id, 'low_balance', { balance_micros: 1_230_000, days_left: 2 });
      for (const width of [390, 320]) {
        const page = await session.newPage(width);
        await logInLive(page, user);
        const count = (await serverList(user)).length;
        await page.getByRole('button', { name: `Notifications (${count})`, exact: true }).click();
        await menu(page).locator('li').nth(1).waitFor();
        const box = (await menu(page).boundingBox())!;
        expect(box.x, `menu at ${width}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `menu at ${width}`).toBeLessThanOrEqual(width);
        expect(await fitsViewport(page), `page at ${width}`).toBe(true);
        await screenshot(page, `notifications-menu-${width}`, { fullPage: false });
        await page.keyboard.press('Escape');

        await raise(server.deps.db, user.id, 'reward', {
          mn_id: 'dash-verylongnodeidentifier0123456789',
          coin: 'Dash',
          alias: 'a long alias for a node',
          amount: '1.25 DASH',
        });
        afterRaise(server.deps);
        const t = toast(page, 'received a reward');
        await t.waitFor();
        const tb = (await t.boundingBox())!;
        expect(tb.x).toBeGreaterThanOrEqual(0);
        expect(tb.x + tb.width, `toast at ${width}`).toBeLessThanOrEqual(width);

        await page.goto('/dashboard/notifications');
        await page.getByRole('switch').first().waitFor();
        expect(await fitsViewport(page), `settings at ${width}`).toBe(true);
        await screenshot(page, `notification-settings-${width}`);
        await page.context().close();
      }
    },
  );
});

describe('notification settings page', () => {
  it(
    'lists every email setting, saves each switch ("Saved") and the server honours it',
    { timeout: 90_000 },
    async () => {
      const user = await newUser('nset');
      const page = await session.newPage();
      await logInLive(page, user);

      // Its own chunk, loaded on the first visit.
      const chunk = page.waitForResponse((r) =>
        /\/assets\/NotificationSettings-[\w-]+\.js$/.test(new URL(r.url()).pathname),
      );
      await page.goto('/dashboard/notifications');
      await chunk;
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      await page.getByRole('switch').first().waitFor();

      // One switch per setting, at its default, with label and subtitle.
      const switches = page.getByRole('switch');
      expect(await switches.count()).toBe(Object.keys(emailSettings).length);
      for (const s of Object.values(emailSettings)) {
        const sw = page.getByRole('switch', { name: s.label, exact: true });
        expect(await sw.isChecked(), s.label).toBe(s.default);
        await page.getByText(s.subtitle, { exact: true }).waitFor();
      }
      await screenshot(page, 'notification-settings');

      // Rewards on, Node down off: each saved on its own, "Saved" each time.
      await page.getByRole('switch', { name: emailSettings.rewards.label, exact: true }).click();
      await toast(page, 'Saved').first().waitFor();
      expect(await toast(page, 'Saved').first().locator('span').textContent()).toBe('Saved');
      await expect
        .poll(async () => (await getNotificationSettings(server.deps.db, user.id)).settings.rewards.enabled)
        .toBe(true);
      // The first toast is dismissed, so the second "Saved" is this save's (a toast also closes
      // itself after 5 s, which a slow machine may take between the two saves).
      await toast(page, 'Saved').first().getByRole('button', { name: 'Dismiss' }).click();
      await toast(page, 'Saved').first().waitFor({ state: 'detached' });
      await page.getByRole('switch', { name: emailSettings.node_down.label, exact: true }).click();
      await toast(page, 'Saved').first().waitFor();
      const saved = (await getNotificationSettings(server.deps.db, user.id)).settings;
      expect(saved.node_down.enabled).toBe(false);
      expect(saved.rewards.enabled).toBe(true);
      // The others kept their defaults.
      expect(saved.node_action.enabled).toBe(true);
      expect(saved.first_reward.enabled).toBe(false);

      // A reload reads the saved settings back from the server.
      await page.reload();
      await page.getByRole('switch').first().waitFor();
      expect(await page.getByRole('switch', { name: emailSettings.rewards.label, exact: true }).isChecked()).toBe(true);
      expect(await page.getByRole('switch', { name: emailSettings.node_down.label, exact: true }).isChecked()).toBe(
        false,
      );

      // Honoured: a node-down notice (off) sends no mail, a reward (on) does.
      await raise(server.deps.db, user.id, 'node_down', { mn_id: 'dash-e2e0000001', coin: 'Dash', alias: null });
      await raise(server.deps.db, user.id, 'reward', {
        mn_id: 'dash-e2e0000002',
        coin: 'Dash',
        alias: null,
        amount: '0.5 DASH',
      });
      afterRaise(server.deps);
      // The mail jobs run in the order raised: once the reward's mail is out, the notice's would be too.
      await smtp.waitFor(user.email, /Reward for your Dash node/);
      const outbox = await server.deps.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_addr', '=', user.email)
        .execute();
      expect(outbox.map((m) => m.subject)).toContain('Reward for your Dash node');
      expect(outbox.filter((m) => /is down/.test(m.subject))).toEqual([]);
      expect(smtp.inbox.some((m) => m.to.includes(user.email) && /is down/.test(m.subject))).toBe(false);
      // Both are in the menu all the same: settings choose the emails only.
      expect((await serverList(user)).map((n) => n.icon)).toEqual(['reward', 'down']);
      await page.context().close();
    },
  );

  it(
    'shows "Error" and puts the switch back when the save fails; loading and load errors',
    { timeout: 60_000 },
    async () => {
      const user = await newUser('nerr');
      const page = await session.newPage();
      await logInLive(page, user);

      // A slow answer shows the loading state; a failed one the error with "Try again".
      const settingsCall = (u: URL) => u.pathname.includes('notifications.get_notification_settings');
      let failLoad = true;
      await page.route(settingsCall, async (route) => {
        await new Promise((r) => setTimeout(r, 800));
        if (failLoad) await route.abort('connectionrefused');
        else await route.continue();
      });
      await page.goto('/dashboard/notifications');
      await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Your notification settings could not be loaded' })
        .waitFor({ timeout: 20_000 });
      failLoad = false;
      await page
        .getByRole('region', { name: 'Email notifications' })
        .getByRole('button', { name: 'Try again' })
        .click();
      await page.getByRole('switch').first().waitFor();
      await page.unroute(settingsCall);

      // The save never reaches the server.
      const saveCall = (u: URL) => u.pathname.includes('notifications.save_notification_settings');
      await page.route(saveCall, (route) => route.abort('connectionreset'));
      const deployed = page.getByRole('switch', { name: emailSettings.node_deployed.label, exact: true });
      expect(await deployed.isChecked()).toBe(true);
      await deployed.click();
      const err = page.getByRole('region', { name: 'Messages' }).getByRole('alert').filter({ hasText: 'Error' });
      await err.waitFor();
      expect((await err.locator('span').first().textContent())?.trim()).toBe('Error');
      await expect.poll(() => deployed.isChecked()).toBe(true);
      expect((await getNotificationSettings(server.deps.db, user.id)).settings.node_deployed.enabled).toBe(true);
      expect(await toast(page, 'Saved').count()).toBe(0);

      // Once the network is back the same switch saves.
      await page.unroute(saveCall);
      await deployed.click();
      await toast(page, 'Saved').waitFor();
      await expect
        .poll(async () => (await getNotificationSettings(server.deps.db, user.id)).settings.node_deployed.enabled)
        .toBe(false);
      expect(await deployed.isChecked()).toBe(false);
      await page.context().close();
    },
  );
});
