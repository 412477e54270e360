import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import {
  Authenticator,
  browserSession,
  consoleNav,
  fitsViewport,
  logInLive,
  logInWithCode,
  screenshot,
} from './browser';

// The support chat in Chromium against the real server (built client: `npm run build`
// first): a customer and a visitor write from the bubble, the operator answers from the
// console's inbox, and each sees the answer live; logging out closes the widget.

let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
let customer: FreshUser;
let operatorPage: Page;

beforeAll(async () => {
  // Support answers around the clock here, so the test does not depend on the hour it runs.
  server = await startTestServer({ SUPPORT_HOURS_UTC: '00:00-24:00' });
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'supop', tfa: true });
  customer = await freshUser(server.deps, { prefix: 'supcust' });
  expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: server.dataDir }, { out: () => {} })).toBe(
    0,
  );
  operatorPage = await session.newPage();
  await logInWithCode(operatorPage, operator, new Authenticator(operator.tfaSecret!));
  await operatorPage.goto('/console');
  await consoleNav(operatorPage, 'Support');
  await operatorPage.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

const panel = (page: Page) => page.getByRole('dialog', { name: 'Support chat' });

async function send(page: Page, text: string) {
  await panel(page).getByLabel('Message').fill(text);
  await panel(page).getByRole('button', { name: 'Send' }).click();
  await panel(page).getByRole('log', { name: 'Conversation' }).getByText(text).waitFor();
}

/** The operator opens the conversation of `who` from the inbox (it arrives live) and answers it. */
async function answer(who: string, text: string) {
  const item = operatorPage.getByRole('button', { name: new RegExp(who) });
  await item.getByText(/unread/).waitFor();
  await item.click();
  await operatorPage.getByLabel('Answer').fill(text);
  await operatorPage.getByRole('button', { name: 'Send answer' }).click();
  await operatorPage.getByRole('alert').or(operatorPage.getByRole('status')).filter({ hasText: /^Sent/ }).waitFor();
  await operatorPage
    .getByRole('log', { name: new RegExp(`Conversation with ${who}`) })
    .getByText(text)
    .waitFor();
}

describe('support chat', () => {
  it('a customer asks, the operator answers from the console inbox, and the answer appears live', async () => {
    const page = await session.newPage();
    await logInLive(page, customer);
    await page.getByRole('button', { name: 'Chat with support' }).click();
    await panel(page).getByText('We answer live, 00:00–24:00 UTC.').waitFor();
    await panel(page)
      .getByText(/a person answers/)
      .waitFor();
    await send(page, 'My Dash node shows DOWN.');
    await answer(customer.username, 'Looking at it now: restarted, it is syncing.');
    // No reload: the account's live channel brings the answer.
    await panel(page)
      .getByRole('log', { name: 'Conversation' })
      .getByText('Looking at it now: restarted, it is syncing.')
      .waitFor();
    await screenshot(page, 'support-chat-customer');
    // With the chat closed, an answer shows on the bubble.
    await panel(page).getByRole('button', { name: 'Close support chat' }).click();
    // The conversation is still open on the operator's page: a second answer.
    await operatorPage.getByLabel('Answer').fill('Synced now.');
    await operatorPage.getByRole('button', { name: 'Send answer' }).click();
    await page.getByRole('button', { name: 'Chat with support: 1 new answer' }).click();
    await panel(page).getByRole('log', { name: 'Conversation' }).getByText('Synced now.').waitFor();
    await page.getByRole('button', { name: 'Close support chat' }).first().click();
    // The answer was read with the panel open: the inbox and the thread agree.
    await expect
      .poll(
        async () =>
          (
            await server.deps.db
              .selectFrom('support_conversations')
              .select('customer_unread')
              .where('user_id', '=', customer.id)
              .executeTakeFirstOrThrow()
          ).customer_unread,
      )
      .toBe(0);

    // The customer's console page shows the conversation too.
    await operatorPage.getByRole('link', { name: customer.username }).click();
    await operatorPage.getByRole('heading', { name: 'Support chat' }).waitFor();
    await operatorPage
      .getByRole('log', { name: `Conversation with ${customer.username}` })
      .getByText('My Dash node shows DOWN.')
      .waitFor();
    await consoleNav(operatorPage, 'Support');

    // Logging out closes the widget.
    await page.getByRole('button', { name: customer.username }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Chat with support' }).waitFor();
    expect(await panel(page).isVisible()).toBe(false);
    await page.context().close();
  });

  it('a visitor leaves an email, and gets the answer live in the chat (and by mail) on a 390 px screen', async () => {
    const page = await session.newPage(390);
    await page.goto('/');
    await page.getByRole('button', { name: 'Chat with support' }).click();
    expect(await panel(page).locator('.support-intro').textContent()).toBe(
      'Leave your email address and your question: we answer here, and by email too, in case you have left this page.',
    );
    await panel(page).getByLabel('Your email').fill('curious@example.test');
    await send(page, 'Which coins can I host?');
    expect(await fitsViewport(page)).toBe(true);
    await answer('curious@example.test', 'More than 50: see the coin list.');
    await panel(page)
      .getByRole('log', { name: 'Conversation' })
      .getByText('More than 50: see the coin list.')
      .waitFor();
    await screenshot(page, 'support-chat-visitor-390');
    const mail = await server.deps.db
      .selectFrom('mail_outbox')
      .select('text')
      .where('to_addr', '=', 'curious@example.test')
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain('More than 50: see the coin list.');
    // The conversation survives a reload (the browser keeps its token).
    await page.reload();
    await page.getByRole('button', { name: 'Chat with support' }).click();
    await panel(page).getByText('Which coins can I host?').waitFor();
    await page.context().close();
  });
});
