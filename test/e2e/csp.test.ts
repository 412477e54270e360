import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { browserSession } from './browser';

// The Content-Security-Policy must not break the built client: every page a visitor and
// a user open runs under it in Chromium without a single violation.
let s: TestServer;
const session = browserSession(() => s.url);

beforeAll(async () => {
  s = await startTestServer();
  await session.launch();
});
afterAll(async () => {
  await session.close();
  await stopTestServer(s);
});

async function violationsOn(paths: string[], token?: string): Promise<string[]> {
  const page = await session.newPage();
  const found: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) found.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `Refused to: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      ),
    );
  });
  if (token) await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), token);
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#root').innerHTML(), p).not.toBe('');
  }
  await page.context().close();
  return found;
}

describe('the built client under the Content-Security-Policy', () => {
  it('visitor pages run without a violation', async () => {
    expect(
      await violationsOn([
        '/',
        '/pricing',
        '/faq',
        '/dashboard',
        '/dashboard/view_coin?coin=dash',
        '/login',
        '/register',
      ]),
    ).toEqual([]);
    session.assertNoPageErrors();
  });

  it("a user's pages run without a violation", async () => {
    const json = { 'content-type': 'application/json' };
    await fetch(`${s.url}/public_api/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'csp_user', email: 'csp@example.test', password: 'csp-pass-12' }),
    });
    const { auth_token } = await fetch(`${s.url}/public_api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'csp_user', password: 'csp-pass-12' }),
    }).then((r) => r.json());
    expect(
      await violationsOn(
        ['/dashboard/portfolio', '/dashboard/settings', '/dashboard/billing', '/dashboard/api'],
        auth_token,
      ),
    ).toEqual([]);
    session.assertNoPageErrors();
  });

  it('the API docs page runs without a violation', async () => {
    const page = await session.newPage();
    const found: string[] = [];
    page.on('console', (m) => found.push(m.text()));
    await page.goto('/api/docs');
    expect(await page.locator('h1').textContent()).toBe('Nodekeep API');
    // Its stylesheet applied (the page is a two-column grid on a wide screen).
    expect(await page.evaluate(() => getComputedStyle(document.body).display)).toBe('grid');
    expect(found).toEqual([]);
    await page.context().close();
  });
});
