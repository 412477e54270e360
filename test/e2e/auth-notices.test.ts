import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { linkIn, startSmtp } from '../support/smtp';
import { at, browserSession } from './browser';

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
});
