import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

/**
 * Debian's Chromium, never a downloaded browser: its headless shell (package
 * chromium-headless-shell, Playwright's own choice for headless runs) when installed, the
 * same Blink without the desktop browser around it. The browser tier took 480 s with the
 * full browser and 361 s with the shell, every test passing on both (docs/benchmarks.md).
 * NODEKEEP_TEST_CHROMIUM names another binary, `/usr/bin/chromium` to check on the full one.
 */
const CHROMIUM =
  process.env.NODEKEEP_TEST_CHROMIUM ??
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const SHOTS = path.resolve('test-results', 'screenshots');

/** Saves test-results/screenshots/<name>.png; the whole page unless a dialog is open over the viewport. */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** True when the page is no wider than the viewport (nothing forces sideways scrolling). */
export function fitsViewport(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** A URL path with its query, as the address bar shows it. */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return u.pathname + u.search;
}

/** Waits until the address bar shows exactly this path and query. */
export async function at(page: Page, expected: string) {
  await page.waitForURL((url) => url.pathname + url.search === expected);
  expect(pathOf(page)).toBe(expected);
}

/**
 * The worker's Chromium: the browser tier shares a worker's modules between its files
 * (vitest.config.ts, which sets NODEKEEP_TEST_SHARED_CHROMIUM there), so one launched
 * browser serves every file the worker runs, each in contexts of its own. A browser that
 * died is launched again. Playwright kills it when the worker exits. Elsewhere (a peers
 * file that also checks no process it started is left) a file has its own browser.
 */
const SHARED = process.env.NODEKEEP_TEST_SHARED_CHROMIUM === '1';
let workerChromium: Promise<Browser> | undefined;
function sharedChromium(): Promise<Browser> {
  if (!workerChromium) {
    const launched = launchChromium();
    workerChromium = launched;
    void launched.then(
      (b) => b.on('disconnected', () => workerChromium === launched && (workerChromium = undefined)),
      () => workerChromium === launched && (workerChromium = undefined),
    );
  }
  return workerChromium;
}

/**
 * One test file's browser: `launch` and `close` it in the file's hooks, run
 * `assertNoPageErrors` after each test. `serverUrl` is asked at every `newPage`, so a
 * file may restart its server. `close` closes the file's contexts (its pages, cookies
 * and storage), and its own browser where it has one; a shared one serves the next file.
 */
export function browserSession(serverUrl: () => string) {
  // The browser tier's test and hook budgets, scaled like each step's by the machine's speed.
  const tierTimeout = Number(process.env.NODEKEEP_TEST_BROWSER_TIMEOUT_MS);
  if (tierTimeout > 0) scaleFileTimeouts(tierTimeout, tierTimeout);
  let browser: Browser | undefined;
  let own: Browser | undefined;
  const contexts = new Set<BrowserContext>();
  const pageErrors: string[] = [];
  /** Cookies and storage of a user signed in with 2FA, by username (see `signedIn`). */
  const signedInStates = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();
  const session = {
    async launch() {
      browser = SHARED ? await sharedChromium() : (own = await launchChromium());
    },
    async close() {
      await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
      contexts.clear();
      await own?.close();
    },
    /**
     * A page in a fresh context (no cookies or storage) on the server; uncaught exceptions in it
     * are kept. `timezoneId`: the browser's time zone (the machine's by default).
     */
    async newPage(
      width = 1280,
      storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
      timezoneId?: string,
    ): Promise<Page> {
      const context = await browser!.newContext({
        baseURL: serverUrl(),
        viewport: { width, height: 860 },
        storageState,
        timezoneId,
      });
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      // One step's budget: 15 s on a quiet machine, more on a loaded one (machine-speed.ts).
      context.setDefaultTimeout(scaled(15_000));
      const page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      // Podman's tests (peers tier) add and remove bridge interfaces while other files
      // run; Chromium then aborts a navigation under way with ERR_NETWORK_CHANGED.
      // Loading the page again is what a user would do, and nothing else retries it.
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await goto(url, options);
          } catch (err) {
            if (attempt >= 3 || !String(err).includes('net::ERR_NETWORK_CHANGED')) throw err;
          }
        }
      };
      return page;
    },
    /**
     * A page signed in as a user with 2FA, on /dashboard. The first call of a file logs in
     * through the login page; later ones start from the session it made. Each login takes
     * a fresh authenticator step (codes are never replayed), and a third login within one
     * 30 s period would have to wait for the next.
     */
    async signedIn(user: { username: string; password: string }, phone: Authenticator, width = 1280) {
      let state = signedInStates.get(user.username);
      // A test may have ended that session (log out, password change, disable): then log in again
      // rather than hand out a page that is signed out.
      if (state && !(await sessionLive(serverUrl(), state))) state = undefined;
      const page = await session.newPage(width, state);
      if (state) {
        await page.goto('/dashboard');
        return page;
      }
      await logInWithCode(page, user, phone);
      signedInStates.set(user.username, await page.context().storageState());
      return page;
    },
    /** Uncaught exceptions in the page fail the test that caused them. */
    assertNoPageErrors() {
      expect(pageErrors.splice(0)).toEqual([]);
    },
  };
  return session;
}

/** Whether the token a saved browser state holds is still a live session on the server. */
async function sessionLive(base: string, state: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const origin = new URL(base).origin;
  const token = state.origins
    .find((o) => o.origin === origin)
    ?.localStorage.find((e) => e.name === 'auth_token')?.value;
  if (!token) return false;
  const res = await fetch(new URL('/api/get_common_info', base), { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.ok;
}

const PERIOD_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / PERIOD_MS);
/** How much of the current period must remain for the previous step's code to be sent. */
const BEHIND_MARGIN_MS = 10_000;

/**
 * Authenticator codes as the user's phone would give them. The server accepts one
 * step of drift either way and refuses a step at or before the last one it took (no
 * replays), so every code here comes from a step newer than the last one handed out.
 * When both the current and the next step are used up, the only way forward is the
 * clock: it waits for the next period to begin.
 */
export class Authenticator {
  private lastStep = -1;
  private readonly totp: TOTP;

  constructor(secret: string) {
    this.totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  }

  /**
   * The earliest step's code the server still takes and that was not used: the previous
   * step while at least 10 s of the current period remain (the server accepts one step
   * behind until then), else the current one, else the next.
   */
  code(): Promise<string> {
    return this.take(0);
  }

  /** The next step's code (one step of drift ahead, still accepted). */
  nextStepCode(): Promise<string> {
    return this.take(1);
  }

  private async take(ahead: 0 | 1): Promise<string> {
    for (;;) {
      const now = Date.now();
      const current = stepAt(now);
      const behind = ahead === 0 && (current + 1) * PERIOD_MS - now >= BEHIND_MARGIN_MS ? [current - 1] : [];
      const step = [...behind, current + ahead, current + 1].find((s) => s > this.lastStep);
      if (step !== undefined) {
        this.lastStep = step;
        return this.totp.generate({ timestamp: step * PERIOD_MS });
      }
      await new Promise((resolve) => setTimeout(resolve, (current + 1) * PERIOD_MS - now + 50));
    }
  }

  /** A six-digit code that no step near now accepts. */
  wrongCode(): string {
    const now = Date.now();
    const near = new Set([-2, -1, 0, 1, 2].map((d) => this.totp.generate({ timestamp: now + d * PERIOD_MS })));
    for (let n = 0; ; n++) {
      const code = String(n).padStart(6, '0');
      if (!near.has(code)) return code;
    }
  }
}

/**
 * Resolves once the page's live subscription has its first frame (events from then on reach it).
 * Its wait covers everything before the socket opens (a login, a page load), so it is longer
 * than one step's 15 s.
 */
export function liveSubscribed(page: Page): Promise<unknown> {
  const subscribed = page.waitForEvent('websocket', { timeout: scaled(30_000) }).then((ws) =>
    ws.waitForEvent('framereceived', {
      predicate: (f) => String(f.payload).includes('"sync"'),
      timeout: scaled(30_000),
    }),
  );
  // Handled here too: when a step before the caller's await fails (a login that times out),
  // that step's error is the test's, not an unhandled rejection of this wait after the page closed.
  subscribed.catch(() => {});
  return subscribed;
}

/** Logs in through the form and waits until the live subscription has its first frame. */
export async function logInLive(page: Page, user: { username: string; password: string }) {
  const subscribed = liveSubscribed(page);
  await page.goto('/login');
  await page.getByLabel('Username or email', { exact: true }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await at(page, '/dashboard');
  await subscribed;
}

/** Logs in a user with 2FA on: password, then the authenticator's next code; lands on the dashboard. */
export async function logInWithCode(page: Page, user: { username: string; password: string }, phone: Authenticator) {
  await page.goto('/login');
  await page.getByLabel('Username or email', { exact: true }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByLabel('2FA code', { exact: true }).fill(await phone.nextStepCode());
  await page.getByRole('button', { name: 'Verify code' }).click();
  await at(page, '/dashboard');
}

/** Opens a console page from the console's navigation. */
export const consoleNav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

/**
 * A download's text. The browser runs as a server of its own (one Chromium for the run),
 * where `download.path()` is refused: the file is streamed over the connection instead.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
