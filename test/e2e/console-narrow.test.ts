import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { CONSOLE_PAGES } from '../../src/client/console/pages';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { Authenticator, browserSession, fitsViewport, logInWithCode, screenshot } from './browser';

// The operator console on a phone (390 px): every page of its nav opens and nothing
// forces the page sideways (wide tables scroll inside their own box). Built client:
// `npm run build` first.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'narrowop', tfa: true });
  await freshUser(server.deps, { prefix: 'narrowcust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('console at 390 px', () => {
  it('opens every page without sideways scrolling', async () => {
    const page = await session.newPage(390);
    await logInWithCode(page, operator, new Authenticator(operator.tfaSecret!));
    const wide: string[] = [];
    for (const p of CONSOLE_PAGES.filter((x) => x.nav !== false)) {
      await page.goto(`/console${p.path === '/' ? '' : p.path}`);
      await page.getByRole('heading', { name: p.label, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      if (!(await fitsViewport(page))) {
        wide.push(p.label);
        await screenshot(page, `console-390-${p.label.toLowerCase()}`);
      }
    }
    expect(wide).toEqual([]);
  });
});
