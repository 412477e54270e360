import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';

// The support chat's bubble floats over the page's bottom right. Wherever the page is
// scrolled (top, middle, bottom), nothing it shows (a link, a button, a table, a toast)
// has the bubble at its centre.
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

/**
 * The elements the bubble covers with the window scrolled through the page, a third of
 * a window at a time: at each stop, after the frame that answers the scroll, every
 * link, button, table and toast whose centre is in the window is checked there.
 */
function covered(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const chat = document.querySelector('.support-chat');
    if (!chat) return ['no bubble on this page'];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = new Set<string>();
    const last = document.documentElement.scrollHeight - window.innerHeight;
    const stops: number[] = [];
    for (let y = 0; y < last; y += Math.round(window.innerHeight / 3)) stops.push(y);
    stops.push(Math.max(last, 0));
    for (const y of stops) {
      window.scrollTo({ top: y, behavior: 'instant' });
      await frame();
      for (const el of document.querySelectorAll<HTMLElement>('a[href], button, table, .toast')) {
        if (chat.contains(el) || el.closest('[hidden]')) continue;
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const x = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        if (cy < 0 || cy > window.innerHeight || x < 0 || x > document.documentElement.clientWidth) continue;
        const hit = document.elementFromPoint(x, cy);
        if (hit && chat.contains(hit))
          out.add(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}" at scroll ${y}`);
      }
    }
    return [...out];
  });
}

describe('the support bubble', () => {
  for (const width of [1280, 390]) {
    it(`covers no link, button, table or toast at ${width} px`, { timeout: 120_000 }, async () => {
      const page = await session.newPage(width);
      const problems: string[] = [];
      const check = async (path: string) => {
        await page.goto(path);
        await page.locator('.support-bubble').waitFor();
        await page.waitForLoadState('networkidle');
        const found = await covered(page);
        if (found.length) {
          problems.push(...found.map((f) => `${path}: ${f}`));
          await screenshot(page, `bubble-${width}-${path.replaceAll('/', '_')}`);
        }
      };
      for (const path of ['/', '/pricing', '/faq', '/dashboard']) await check(path);
      await logInLive(page, customer);
      for (const path of ['/dashboard/billing', '/dashboard/settings', '/dashboard/portfolio']) await check(path);
      expect(problems).toEqual([]);
    });
  }
});
