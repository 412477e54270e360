import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';
import { launcherOverlaps } from './launcherClear';

// The support chat's launcher lies over nothing the page shows (a link, a button, a form
// field, a table cell, a toast) at any scroll position, for a visitor and a customer, at
// desktop and phone width: proved from the boxes for the whole scroll range (launcherClear.ts).
// Built client: `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);
let customer: FreshUser;

beforeAll(async () => {
  server = await startTestServer({ SUPPORT_HOURS_UTC: '00:00-24:00' });
  await session.launch();
  customer = await freshUser(server.deps, { prefix: 'bubble' });
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('the support launcher', () => {
  for (const width of [1280, 390]) {
    it(`covers no link, button, field, table cell or toast at ${width} px`, { timeout: 120_000 }, async () => {
      const page = await session.newPage(width);
      const problems: string[] = [];
      const check = async (path: string) => {
        await page.goto(path);
        await page.getByRole('button', { name: /^Chat with support/ }).waitFor();
        await page.waitForLoadState('networkidle');
        const found = await launcherOverlaps(page);
        if (found.length) {
          problems.push(...found.map((f) => `${path}: ${f}`));
          await screenshot(page, `launcher-${width}-${path.replaceAll('/', '_')}`);
        }
      };
      for (const path of ['/', '/pricing', '/faq', '/dashboard']) await check(path);
      await logInLive(page, customer);
      for (const path of ['/dashboard/billing', '/dashboard/settings', '/dashboard/portfolio']) await check(path);
      expect(problems).toEqual([]);
    });
  }

  it('opens from the keyboard, closes with Escape and gives the focus back', { timeout: 60_000 }, async () => {
    const page = await session.newPage(390);
    await page.goto('/faq');
    const launcher = page.getByRole('button', { name: 'Chat with support' });
    // No panel yet: the button names none (aria-controls must name an element that exists).
    expect(await launcher.getAttribute('aria-controls')).toBeNull();
    await launcher.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Support chat' });
    await panel.getByRole('button', { name: 'Close support chat' }).waitFor();
    const controls = await page.locator('#support-launcher').getAttribute('aria-controls');
    expect(controls).toBe(await panel.getAttribute('id'));
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('support-launcher');
  });

  it("is left out, with no dead button, when the chat's code cannot load", { timeout: 60_000 }, async () => {
    const page = await session.newPage(1280);
    let failed = 0;
    const gaveUp = new Promise<void>((resolve) =>
      page.on('requestfailed', (r) => {
        // The first request and lazyPart's two retries.
        if (/\/SupportChat-[^/]*\.js$/.test(r.url()) && ++failed === 3) resolve();
      }),
    );
    await page.route(/\/SupportChat-[^/]*\.js$/, (route) => route.abort());
    await page.goto('/faq');
    await gaveUp;
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'Pricing' }).first().waitFor();
    expect(await page.getByRole('button', { name: /Chat with support/ }).count()).toBe(0);
  });
});
