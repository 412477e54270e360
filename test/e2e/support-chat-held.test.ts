import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SUPPORT_MESSAGES } from '../../src/server/support/service';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startSmtp } from '../support/smtp';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser, outboxLink } from '../support/users';
import { browserSession, fitsViewport, logInLive, screenshot } from './browser';

// A visitor writes in the chat after 40 addresses used up the hourly rate of new visitor
// conversations (built client: `npm run build` first). The widget says the message waits
// for them to confirm their email; the mailed link (real SMTP) confirms it on its page, and
// the open widget drops the notice live.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url, SUPPORT_HOURS_UTC: '00:00-24:00' });
  await session.launch();
  const flood = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      requestFrom(loopback(Math.floor(i / 5), 100), `${server.url}/trpc/support.visitor_start`, {
        body: { email: `flood${i}@spam.test`, body: 'spam' },
      }),
    ),
  );
  expect(byStatus(flood)).toEqual({ 200: 200 });
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await smtp.close();
});

const panel = (page: Page) => page.getByRole('dialog', { name: 'Support chat' });

describe('a held visitor conversation', () => {
  it('the widget says where the link went; the link confirms on its page and the widget follows live', async () => {
    const page: Page = await session.newPage(390);
    await page.goto('/');
    await page.getByRole('button', { name: 'Chat with support' }).click();
    await panel(page).getByLabel('Your email').fill('held@example.test');
    await panel(page).getByLabel('Message').fill('Do you host Dash nodes?');
    await panel(page).getByRole('button', { name: 'Send' }).click();
    const notice = panel(page).getByText(
      'We received your message. To reach our team, confirm your email: we sent a link to held@example.test.',
      { exact: false },
    );
    await notice.waitFor();
    await panel(page).getByRole('log', { name: 'Conversation' }).getByText('Do you host Dash nodes?').waitFor();
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, 'support-chat-held-390');

    const mail = await smtp.waitFor('held@example.test', /^Confirm your email to reach Nodekeep support$/);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    // A made-up link says what to do and changes nothing.
    const tab = await page.context().newPage();
    await tab.goto('/support/confirm?t=made-up');
    await tab.getByText(SUPPORT_MESSAGES.confirmInvalid).waitFor();
    expect(
      (
        await server.deps.db
          .selectFrom('support_conversations')
          .select('held')
          .where('visitor_email', '=', 'held@example.test')
          .executeTakeFirstOrThrow()
      ).held,
    ).toBe(1);

    await tab.goto(link);
    await tab.getByText('Your email is confirmed.').waitFor();
    await tab.getByText('Your message has reached our team.', { exact: false }).waitFor();
    await screenshot(tab, 'support-chat-confirmed');
    // The open widget hears of it on the visitor's live channel.
    await notice.waitFor({ state: 'detached' });
    expect(
      (
        await server.deps.db
          .selectFrom('support_conversations')
          .select('held')
          .where('visitor_email', '=', 'held@example.test')
          .executeTakeFirstOrThrow()
      ).held,
    ).toBe(0);

    // The link again: already done.
    await tab.goto(link);
    await tab.getByText('Your email was already confirmed.').waitFor();
    await page.context().close();
  });

  it('an account not yet verified: the widget points to its verification link; verifying drops the notice live', async () => {
    const user = await freshUser(server.deps, { prefix: 'heldcust', verified: false, login: false });
    const page: Page = await session.newPage(390);
    await logInLive(page, user);
    await page.getByRole('button', { name: 'Chat with support' }).click();
    await panel(page).getByLabel('Message').fill('Is my account ready?');
    await panel(page).getByRole('button', { name: 'Send' }).click();
    const notice = panel(page).getByText(
      `We received your message. To reach our team, confirm your email: use the link we sent to ${user.email} (Settings can resend it).`,
    );
    await notice.waitFor();
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, 'support-chat-held-account-390');

    await callerFor(server.deps)().auth.verify({ hash: await outboxLink(server.deps.db, user.email, '/verify?h=') });
    await notice.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
