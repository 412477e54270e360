import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { at, Authenticator, browserSession, screenshot } from './browser';

// The first run in Chromium against the real server (built client in dist/client): the
// link the start printed opens the page that creates the operator with 2FA, and the
// console opens. Run `npm run build:client` first.

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

function printedLink(): string {
  const line = server.logLines.find((l) => l.includes('setup_url'));
  if (!line) throw new Error('no setup link in the start log');
  return JSON.parse(line).setup_url as string;
}

describe('first run in the browser', () => {
  it('creates the operator account with 2FA from the printed link and reaches the console', async () => {
    const link = printedLink();
    expect(link).toMatch(new RegExp(`^${server.url}/setup/[\\w-]{40,}$`));
    const path = new URL(link).pathname;
    const page = await session.newPage();

    // A wrong token says so.
    await page.goto('/setup/not-a-real-token');
    await page.getByText("This setup link is not valid. Use the newest link printed in the server's log.").waitFor();

    await page.goto(path);
    await page.getByRole('heading', { name: 'Create the operator account' }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByLabel('Email', { exact: true }).fill('admin@example.test');
    await page.getByLabel('Password', { exact: true }).fill('first-secret-1');
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('tfa-secret').textContent())!.trim();
    const auth = new Authenticator(secret);
    // A wrong code is refused and the form stays.
    await page.getByLabel('2FA code', { exact: true }).fill('000000' === (await auth.code()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Create the operator account' }).click();
    await page.getByText('Invalid 2FA code. Enter the code your authenticator app shows for this key now.').waitFor();
    await screenshot(page, 'first-run');

    await page.getByLabel('2FA code', { exact: true }).fill(await auth.code());
    await page.getByRole('button', { name: 'Create the operator account' }).click();
    await at(page, '/console');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    // The link now says setup is done and leads to the login.
    await page.goto(path);
    await page.getByText('Setup is done: the operator account exists. Log in to open the console.').waitFor();
  }, 120_000);
});
