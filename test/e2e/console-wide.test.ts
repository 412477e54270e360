import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { CONSOLE_PAGES } from '../../src/client/console/pages';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { Authenticator, browserSession, logInWithCode, screenshot } from './browser';

// The operator console at 1280 px: no card's content spills out of it (a table wider
// than its card scrolls inside its own box), and the pages use the screen's width
// rather than a narrow column. Built client: `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'wideop', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'widecust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('console at 1280 px', () => {
  it('keeps every card around its content and uses the width of the screen', { timeout: 120_000 }, async () => {
    const page = await session.newPage(1280);
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    const problems: string[] = [];
    for (const p of CONSOLE_PAGES) {
      const path = p.path === '/' ? '' : p.path.replace(':id', String(customer.id));
      await page.goto(`/console${path}`);
      await page.locator('.console-main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const found = await page.evaluate(() => {
        const out: string[] = [];
        const boxes = document.querySelectorAll<HTMLElement>('.console-section, .console-card, .console-chart');
        for (const el of boxes) {
          const name = el.querySelector('h2, h3')?.textContent ?? el.className;
          if (el.scrollWidth > el.clientWidth + 1) out.push(`${name} spills (${el.scrollWidth} > ${el.clientWidth})`);
          // A card standing alone in the page (not one of a grid of cards) takes the page's width.
          const alone = el.parentElement?.closest(
            '.console-cards, .console-charts, .console-columns, .console-support',
          );
          if (el.classList.contains('console-section') && !alone && el.offsetWidth < window.innerWidth * 0.8)
            out.push(`${name} is ${el.offsetWidth} px wide`);
        }
        return out;
      });
      if (found.length) {
        problems.push(...found.map((f) => `${p.label}: ${f}`));
        await screenshot(page, `console-1280-${p.label.toLowerCase()}`, { fullPage: true });
      }
    }
    expect(problems).toEqual([]);
  });
});
