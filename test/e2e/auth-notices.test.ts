import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { linkIn, startSmtp } from '../support/smtp';
import { at, browserSession, pathOf } from './browser';

// Issue 24, item 15: a bad email-verification link and a finished password reset each
// say what happened on the page the customer lands on. Run `npm run build:client` first.

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

describe('what happened, said on the page it lands on', () => {
  it('a bad or incomplete verification link goes to / and says why', async () => {
    const page = await session.newPage();
    await page.goto('/verify?h=not-a-real-link');
    await at(page, '/');
    await page
      .getByRole('alert')
      .getByText(/^Your email was not verified: /)
      .waitFor();

    await page.goto('/verify');
    await at(page, '/');
    await page
      .getByRole('alert')
      .getByText('Your email was not verified: this link is incomplete. Open the link in the email again.')
      .waitFor();
    await page.context().close();
  });

  it('after a password reset the login page says the password was changed', async () => {
    const { email } = await freshUser(server.deps, { prefix: 'notice', verified: true, login: false });
    const page = await session.newPage();
    await page.goto('/recover');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const mail = await smtp.waitFor(email, /reset/i);
    await page.goto(linkIn(mail.text, '/reset?token='));
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await at(page, '/login');
    await page.getByText('Your password was changed. Log in with your new password.').waitFor();
    expect(await page.getByLabel('Username or email', { exact: true }).isVisible()).toBe(true);
    await page.context().close();
  });

  // Last in this file: it spends this address's link checks (verifyPerIp) for 15 minutes.
  it('a reset link checked too often from one address says so on the page, not by leaving it', async () => {
    let refused = 0;
    while (refused === 0) {
      const r = await fetch(`${server.url}/public_api/check_reset_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'guessed-token' }),
      });
      if (r.status === 429) refused++;
      else expect(r.status).toBe(400);
    }
    const page = await session.newPage();
    await page.goto('/reset?token=a-link-from-the-email');
    const alert = page.getByRole('alert').filter({ hasText: 'Your link could not be checked: Too many attempts.' });
    await alert.waitFor();
    expect(pathOf(page)).toBe('/reset?token=a-link-from-the-email');
    // Asking again is refused again, and still said on the page.
    const again = page.waitForResponse((r) => r.url().includes('check_reset_token'));
    await alert.getByRole('button', { name: 'Try again' }).click();
    expect((await again).status()).toBe(429);
    await alert.waitFor();
    expect(pathOf(page)).toBe('/reset?token=a-link-from-the-email');
    await page.context().close();
  });
});
