import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { browserSession, logInLive } from './browser';

// The "Alert channels" section of /dashboard/notifications in Chromium against the real
// server and a real webhook receiver on loopback. Run `npm run build` first.

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const session = browserSession(() => server.url);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ ALERT_WEBHOOK_ALLOW_PRIVATE: 'true' });
  await session.launch();
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  await receiver?.close();
});

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).locator('.toast', { hasText: text });

describe('alert channels page', () => {
  it(
    'adds a webhook, shows its secret once, sends a signed test, reports a failing one, turns it off and deletes it',
    { timeout: 90_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'e2ech', login: false });
      const page = await session.newPage();
      await logInLive(page, user);
      await page.goto('/dashboard/notifications');
      const section = page.getByRole('region', { name: 'Alert channels' });
      await section.getByText('You have no alert channels yet.').waitFor();

      // A bad URL is refused with its message and nothing is added.
      await section.getByLabel('Webhook URL').fill('ftp://example.com/x');
      await section.getByRole('button', { name: 'Add channel' }).click();
      await section.getByRole('alert').getByText('Only http:// and https:// URLs are allowed.').waitFor();

      await section.getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
      await section.getByRole('button', { name: 'Add channel' }).click();
      await toast(page, 'Alert channel added').waitFor();
      const secret = (await section.getByLabel('Signing secret', { exact: true }).textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      // How to check the signature, in words a reader can follow (no "of<unix time>").
      const explained = await section.getByText(/Each delivery carries the header/).textContent();
      expect(explained).toContain(
        "t is the delivery's Unix time, and v1 the hex HMAC-SHA256, keyed with this secret, of t, a dot and the request body.",
      );
      receiver.state.secret = secret;
      await section.getByText(`${receiver.url}/hook`).waitFor();

      await section.getByRole('button', { name: `Send test to Webhook ${receiver.url}/hook` }).click();
      await toast(page, 'Test alert sent.').waitFor();
      expect(receiver.received.at(-1)!.verdict).toBe('ok');

      receiver.state.failWith = { status: 500, text: 'receiver broken' };
      await section.getByRole('button', { name: `Send test to Webhook ${receiver.url}/hook` }).click();
      await toast(page, 'The test alert was not delivered: the receiver answered HTTP 500: receiver broken').waitFor();
      receiver.state.failWith = null;

      const sw = section.getByRole('switch', { name: `Webhook ${receiver.url}/hook on` });
      expect(await sw.isChecked()).toBe(true);
      await sw.click();
      await expect
        .poll(
          async () =>
            (
              await server.deps.db
                .selectFrom('alert_channels')
                .select('enabled')
                .where('target', '=', `${receiver.url}/hook`)
                .executeTakeFirstOrThrow()
            ).enabled,
        )
        .toBe(0);

      await section.getByRole('button', { name: `Delete Webhook ${receiver.url}/hook` }).click();
      await toast(page, 'Alert channel deleted').waitFor();
      await section.getByText('You have no alert channels yet.').waitFor();
    },
  );
});
