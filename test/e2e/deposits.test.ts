import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';
import { browserSession, logInLive, screenshot } from './browser';

// The Crypto tab of /dashboard/billing in Chromium against the real server. Run `npm run build` first.
// Making a Bitcoin-family address needs no daemon (derived from the tpub), so none runs here.

let server: TestServer;
const session = browserSession(() => server.url);
const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;
const cli = (...args: string[]) => runCli(args, { DATA_DIR: server.dataDir }, { out: () => {} });
const add = (id: string, label: string) =>
  cli(
    'deposits',
    'add',
    id,
    '--label',
    label,
    '--ticker',
    id.toUpperCase(),
    '--confirmations',
    '6',
    '--xpub',
    tpub,
    '--address',
    'wpkh:rltc',
    '--rpc-url',
    'http://127.0.0.1:9',
  );

beforeAll(async () => {
  server = await startTestServer({ DEPOSIT_POLL_SECONDS: '3600' });
  await session.launch();
  expect(await add('doge', 'Dogecoin')).toBe(0);
  expect(await add('ltc', 'Litecoin')).toBe(0);
  expect(await add('dash', 'Dash')).toBe(0);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('Billing: Crypto tab', () => {
  it(
    'generates the address only after the three acknowledgements and shows it with a QR code and a copy button',
    { timeout: 90_000 },
    async () => {
      const user = await freshUser(server.deps, { prefix: 'cryptotab', login: false });
      const page = await session.newPage();
      await logInLive(page, user);
      await page.goto('/dashboard/billing');
      const select = page.getByLabel('Currency');
      await select.waitFor();
      // The spec's preferred coins first.
      expect(await select.locator('option').allInnerTexts()).toEqual([
        'Litecoin (LTC)',
        'Dash (DASH)',
        'Dogecoin (DOGE)',
      ]);
      const generate = page.getByRole('button', { name: 'Generate address' });
      expect(await generate.isDisabled()).toBe(true);
      await page.getByLabel('I understand that deposits only cover hosting fees.').check();
      await page.getByLabel('I understand that I must buy the masternode collateral myself.').check();
      expect(await generate.isDisabled()).toBe(true);
      await page.getByLabel('I understand that crypto deposits are non-refundable.').check();
      await select.selectOption('dash');
      // By keyboard: Enter on Generate; the button goes away and the focus moves on to the address's Copy button.
      await generate.focus();
      await page.keyboard.press('Enter');
      const shown = page.getByTestId('deposit-address');
      await shown.waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Copy address');
      const row = await server.deps.db
        .selectFrom('deposit_addresses')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.currency_id).toBe('dash');
      expect(await shown.innerText()).toBe(row.address);
      await page.getByRole('img', { name: 'QR code of your Dash deposit address' }).waitFor();
      await page.getByRole('button', { name: /Copy address/ }).waitFor();
      await page.getByText('credited to your balance in USD after 6 confirmations').waitFor();
      await screenshot(page, 'billing-crypto-address', { fullPage: false });
      // The same address after a reload.
      await page.reload();
      await page.getByLabel('Currency').selectOption('dash');
      expect(await page.getByTestId('deposit-address').innerText()).toBe(row.address);
    },
  );

  it('a failed generate shows the message and fetches the currency list again', { timeout: 90_000 }, async () => {
    const user = await freshUser(server.deps, { prefix: 'cryptofail', login: false });
    const page = await session.newPage();
    await logInLive(page, user);
    await page.goto('/dashboard/billing');
    await page.getByLabel('Currency').selectOption('doge');
    for (const l of await page.getByRole('checkbox').all()) await l.check();
    // The operator withdraws the currency while the page is open.
    expect(await cli('deposits', 'disable', 'doge')).toBe(0);
    await page.getByRole('button', { name: 'Generate address' }).click();
    await page.getByRole('alert').getByText('This currency is not accepted for deposits.').waitFor();
    await expect
      .poll(() => page.getByLabel('Currency').locator('option').allInnerTexts())
      .toEqual(['Litecoin (LTC)', 'Dash (DASH)']);
    expect(
      await server.deps.db.selectFrom('deposit_addresses').selectAll().where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });
});
