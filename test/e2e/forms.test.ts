import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { startSmtp } from '../support/smtp';
import { browserSession } from './browser';

// The form hook (src/client/ui/useForm.ts) in a real browser against the real server:
// the client check with the shared schema, the server's field errors under their
// fields, one error and one success alert. Run `npm run build:client` first.

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

const REGISTER = /\/trpc\/auth\.register(\?|$)/;

describe('forms', () => {
  it(
    'check with the shared schema before sending, and show the server field errors under their fields',
    { timeout: 60_000 },
    async () => {
      const page = await session.newPage();
      const sent: string[] = [];
      page.on('request', (r) => {
        if (REGISTER.test(r.url())) sent.push(r.url());
      });
      await page.goto('/register');
      const username = page.getByLabel('Username', { exact: true });
      await username.fill('x');
      await page.getByLabel('Email', { exact: true }).fill('not-an-email');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      // Refused in the browser, with the shared rule's words, tied to the field.
      await page.getByText('Username must be at least 3 characters').waitFor();
      expect(await username.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('Email must be a valid email address').count()).toBe(1);
      expect(sent).toEqual([]);

      // A client without the check (an old tab, a script) sends bad input anyway: the
      // server's own validation answers with field errors, shown under the same fields.
      await page.route(REGISTER, async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, Record<string, unknown>>;
        for (const call of Object.values(body)) Object.assign(call, { username: 'x', email: 'not-an-email' });
        await route.continue({ postData: JSON.stringify(body) });
      });
      await username.fill(`forms_${Date.now().toString(36)}`);
      await page.getByLabel('Email', { exact: true }).fill('forms@example.test');
      await page.getByLabel('Password', { exact: true }).fill('forms-secret-1');
      await page.getByLabel('Confirm password', { exact: true }).fill('forms-secret-1');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('Username must be at least 3 characters').waitFor();
      await page.getByText('Email must be a valid email address').waitFor();
      expect(sent.length).toBe(1);
      // One error alert for the form, nothing else.
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await page.getByRole('alert').textContent()).toContain('Error!');
      await page.context().close();
    },
  );

  it('show one success message, and a new submit clears the last one', async () => {
    const page = await session.newPage();
    await page.goto('/recover');
    const email = page.getByLabel('Email', { exact: true });
    await email.fill('nobody@example.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const success = page.locator('.alert-success');
    await success.waitFor();
    expect(await success.count()).toBe(1);
    // A refused value replaces the success with the field's message.
    await email.fill('nope');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Email must be a valid email address').waitFor();
    expect(await success.count()).toBe(0);
    await page.context().close();
  });
});
