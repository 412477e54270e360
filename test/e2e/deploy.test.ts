import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bls12_381 } from '@noble/curves/bls12-381';
import { create, defaultPbkdfModule } from '@chainsafe/bls-keystore';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { at, browserSession, fitsViewport, pathOf, screenshot, liveSubscribed } from './browser';
import { scaled } from '../support/machine-speed';
import { fastFleetEnv } from '../support/fast-fleet';
import { freshAddress, MAINNET } from '../support/addresses';
import { OUTPOINT_INVALID, TXID_INVALID } from '../../src/shared/address-check';

// The deploy page (deployment-and-nodes.md sections 2, 4, 5, 8): one coin of every
// wizard kind deployed end to end in Chromium, from the begin step through the wizard's
// steps and client messages to "Setup completed!" and onto the node page, against the
// fleet's simulator. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-deploy-');
const fleetEnv = fastFleetEnv(dataDir);
const env = fleetEnv;

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { username: '', password: '', token: '' };
let page: Page;

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'deployer_' }));
  await session.launch();
  page = await session.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // Logged in as the form would leave it, with the live subscription open from the first page.
  await page.addInitScript((t) => window.localStorage.setItem('auth_token', t), owner.token);
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const txid = () => randomBytes(32).toString('hex');
/**
 * A txid the simulator's SIN chain answers for by its prefix (simulator/ledger.ts):
 * `b0b0` a burn made a day ago, `01d0` one made 400 days ago, `5e4d` a payment that burns nothing.
 */
const burnTxid = (prefix: 'b0b0' | '01d0' | '5e4d' = 'b0b0') => prefix + randomBytes(30).toString('hex');
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** An address-like string: a prefix and base58 characters, `length` in all. */
const address = (prefix: string, length: number) =>
  prefix + Array.from(randomBytes(length - prefix.length), (b) => BASE58[b % 58]).join('');
const button = (name: string) => page.getByRole('button', { name, exact: true });
/** The message under a field, by the field's label. */
const fieldError = (label: string) => page.locator(`.field:has(> label:text-is("${label}")) .field-error`);
/** A form control by its whole label (a step's region is named by its title, which may contain the label). */
const input = (label: string) => page.getByLabel(label, { exact: true });
const counter = () => page.locator('.guide-counter');

async function expectFieldError(label: string, message: string) {
  await fieldError(label).waitFor();
  expect(await fieldError(label).textContent()).toBe(message);
}

async function expectStep(n: number, total: number) {
  await page.getByText(`Step ${n} of ${total}`, { exact: true }).waitFor();
  expect(await counter().textContent()).toBe(`Step ${n} of ${total}`);
}

/** Opens the deploy page of a coin and starts its wizard with this experience. */
async function start(coin: string, experience: 'Beginner' | 'Advanced/Migration' = 'Beginner', plan?: 'Cloud') {
  const subscribed = liveSubscribed(page);
  await page.goto(`/dashboard/deploy?coin=${coin}`);
  await subscribed;
  await page.getByRole('button', { name: "Let's start" }).waitFor();
  expect(await page.getByRole('radio', { name: /Dedicated/ }).isChecked()).toBe(true);
  expect(await page.getByRole('radio', { name: /Beginner/ }).isChecked()).toBe(true);
  if (plan) await page.getByRole('radio', { name: new RegExp(plan) }).check();
  if (experience !== 'Beginner')
    await page.getByRole('radio', { name: new RegExp(experience.replace('/', '\\/')) }).check();
  await button("Let's start").click();
}

/** Clicks the deploy button and returns the server's answer (its server_id). */
async function deploy(name = 'Deploy'): Promise<{ server_id: string; server_ids: string[] }> {
  const answer = page.waitForResponse(
    (r) => r.url().includes('deploy.deploy_server') || r.url().includes('deploy.deploy_validators'),
  );
  await button(name).click();
  const body = (await (await answer).json()) as [
    { result?: { data: { server_id: string; server_ids: string[] } }; error?: { message: string } },
  ];
  expect(body[0].error?.message).toBeUndefined();
  return body[0].result!.data;
}

/** A configuration view of the node page, by its card's title. */
const view = (title: string) => page.getByRole('region', { name: title, exact: true });

/** The node page open on its Configuration tab; `check` then looks at the kind's view. */
async function onConfigTab(serverId: string, check: () => Promise<void>) {
  await at(page, `/dashboard/masternode/${serverId}?tab=config`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const tab = page.getByRole('tab', { name: 'Configuration' });
  await tab.waitFor();
  expect(await tab.getAttribute('aria-selected')).toBe('true');
  await check();
}

/** Deploying → deployed ("Setup completed!", from server_created) → the queue's link → the node's Configuration tab. */
async function finish(serverId: string, check: () => Promise<void>) {
  await page.getByRole('heading', { name: 'Setup completed!' }).waitFor({ timeout: scaled(30_000) });
  await page.getByText('Click your node in the right pane').waitFor();
  const item = page.locator(`.queue-item[data-mn="${serverId}"]`);
  await item.getByRole('link', { name: 'Click here to continue' }).click({ timeout: scaled(30_000) });
  await onConfigTab(serverId, check);
}

/** The classic start view: the masternode.conf line holding these values, and the start command. */
async function classicView(...values: string[]) {
  const v = view('Start your masternode');
  const line = v.getByLabel('masternode.conf', { exact: true });
  await line.waitFor();
  for (const value of values) expect(await line.textContent()).toContain(value);
  await v.getByLabel('Start the node from your wallet', { exact: true }).waitFor();
}

async function next(times = 1) {
  for (let i = 0; i < times; i++) await button('Next').click();
}

describe('the deploy page', () => {
  it('goes to /dashboard without a coin or for a coin the server does not know', async () => {
    await page.goto('/dashboard/deploy');
    await at(page, '/dashboard');
    await page.goto('/dashboard/deploy?coin=no-such-coin');
    await at(page, '/dashboard');
  });

  it('shows the maintenance notice instead of the wizard (BITG is under maintenance)', async () => {
    await page.goto('/dashboard/deploy?coin=bitg');
    await page
      .getByText(
        "Deployments of this project's nodes are temporarily disabled due to maintenance. Please check back later.",
        { exact: true },
      )
      .waitFor();
    expect(await page.getByRole('button', { name: "Let's start" }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View stats' }).getAttribute('href')).toBe(
      '/dashboard/view_coin?coin=bitg',
    );
  });

  it('plan cards: daily prices to 3 decimals, the campaign price beside the struck-through one, Cloud disabled without a cloud plan', async () => {
    await page.goto('/dashboard/deploy?coin=dash');
    const dedicated = page.locator('.choice-card[data-plan="dedicated"]');
    await dedicated.waitFor();
    expect(await dedicated.locator('s').textContent()).toBe('$0.130');
    expect(await dedicated.locator('strong').textContent()).toBe('$0.100');
    expect(await page.locator('.choice-card[data-plan="cloud"] strong').textContent()).toBe('$0.045');
    expect(await page.getByRole('link', { name: 'View stats' }).getAttribute('href')).toBe(
      '/dashboard/view_coin?coin=dash',
    );
    await screenshot(page, 'deploy-begin');

    await page.goto('/dashboard/deploy?coin=eth');
    const cloud = page.getByRole('radio', { name: /Cloud/ });
    await cloud.waitFor({ state: 'attached' });
    expect(await cloud.isDisabled()).toBe(true);
    expect(await page.locator('.choice-card[data-plan="cloud"]').getAttribute('title')).toBe(
      'This coin has no Cloud plan.',
    );
    expect(await page.locator('.choice-card[data-plan="dedicated"] strong').textContent()).toBe('$0.330');
    // A plan the coin does not offer shows no price.
    expect(await page.locator('.choice-card[data-plan="cloud"] .choice-price').count()).toBe(0);
    expect(await page.locator('.choice-card[data-plan="cloud"]').textContent()).not.toContain('$');
  });

  it('fits 320 px: the begin cards and a step with long commands', async () => {
    const narrow = await session.newPage(320);
    await narrow.addInitScript((t) => window.localStorage.setItem('auth_token', t), owner.token);
    await narrow.goto('/dashboard/deploy?coin=sin');
    await narrow.getByRole('button', { name: "Let's start" }).waitFor();
    expect(await fitsViewport(narrow)).toBe(true);
    await narrow.getByRole('radio', { name: /Advanced/ }).check();
    await narrow.getByRole('button', { name: "Let's start" }).click();
    await narrow.getByText('Step 7 of 9', { exact: true }).waitFor();
    expect(await fitsViewport(narrow)).toBe(true);
    await screenshot(narrow, 'deploy-sin-320');
    await narrow.context().close();
  });
});

describe('one coin of every wizard, deployed end to end', () => {
  it(
    'dip003 (Dash), beginner: four steps with its commands, the txid rule, the payee choice, migration',
    { timeout: 90_000 },
    async () => {
      await start('dash');
      await expectStep(1, 4);
      await next();
      await expectStep(2, 4);
      await page.getByText('getnewaddress', { exact: true }).waitFor();
      await next();
      await expectStep(3, 4);
      // The command needs the customer's new address: a field for it, never a <…> to edit.
      await page.getByText('Send exactly 1,000 DASH: fill in your new address above to see the command.').waitFor();
      await input('Your new address').fill(MAINNET.dash);
      await page.getByText(`sendtoaddress ${MAINNET.dash} 1000`, { exact: true }).waitFor();
      expect(await page.locator('.guide-step').textContent()).not.toMatch(/<[a-z ]+>/);
      await page.getByText('masternode outputs', { exact: true }).waitFor();
      await screenshot(page, 'deploy-dash-step3');
      await button('Copy: masternode outputs').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('masternode outputs');
      await next();
      await expectStep(4, 4);

      await button('Deploy').click();
      await expectFieldError('Transaction ID', 'Transaction ID required.');
      await input('Transaction ID').fill('a');
      expect(await fieldError('Transaction ID').count()).toBe(0);

      await input('Transaction ID').fill('not-a-txid');
      await button('Deploy').click();
      await expectFieldError('Transaction ID', OUTPOINT_INVALID);
      await input('Transaction ID').fill(txid());

      await page.getByRole('radio', { name: 'Use another one' }).check();
      await input('Payee address').fill(MAINNET.firo);
      await button('Deploy').click();
      await expectFieldError('Payee address', 'This is not a Dash address: it should start with X or 7.');
      await page.getByRole('radio', { name: 'Use the same address I sent the collateral to' }).check();
      await input('I want to migrate my masternode from another platform').check();
      await input('Transaction ID').fill('');
      await input('Operator key (BLS secret key)').fill('not-a-key');
      await button('Deploy').click();
      await expectFieldError('Operator key (BLS secret key)', 'Incorrect BLS key');
      await screenshot(page, 'deploy-dash-step4');
      await input('I want to migrate my masternode from another platform').uncheck();

      await input('Transaction ID').fill(txid());
      const { server_id } = await deploy();
      await page
        .getByRole('heading', { name: 'Setting up your node...' })
        .or(page.getByRole('heading', { name: 'Setup completed!' }))
        .waitFor();
      await screenshot(page, 'deploy-dash-deploying');
      // Not started yet: the sign-message start form.
      await finish(server_id, async () => {
        await view('Start your masternode').getByLabel('Prepared transaction and signature').waitFor();
        await view('Start your masternode').getByRole('button', { name: 'Start node' }).waitFor();
      });
      expect(pathOf(page)).toBe(`/dashboard/masternode/${server_id}?tab=config`);
    },
  );

  it(
    'burn (SIN), advanced: starts at the burn, Previous goes to the start, a checked burn jumps to 9',
    { timeout: 90_000 },
    async () => {
      await start('sin', 'Advanced/Migration');
      await expectStep(7, 9);
      await page.getByText(/fill in your new address and your backup address above to see the command\.$/).waitFor();
      await button('Previous').click();
      await button("Let's start").waitFor();
      expect(await page.getByRole('radio', { name: /Advanced/ }).isChecked()).toBe(true);
      await button("Let's start").click();
      await expectStep(7, 9);

      // The demo's help under the field says which burns the simulated chain knows, with one to paste.
      const hint = page.locator('.field:has(> label:text-is("Burn transaction ID")) .field-hint');
      await hint.getByText('it knows a burn made a day ago for any transaction ID', { exact: false }).waitFor();
      const example = (await hint.locator('code').textContent())!;
      expect(example).toMatch(/^b0b0[0-9a-f]{60}$/);
      await button('Check burn').click();
      await expectFieldError('Burn transaction ID', 'Transaction ID required.');
      // Not a transaction ID at all: said under the field before the daemon is asked.
      await input('Burn transaction ID').fill('not-a-txid');
      await button('Check burn').click();
      await expectFieldError('Burn transaction ID', TXID_INVALID);
      // The server looks the burn up on the coin's daemon: each refusal keeps step 7 with its message.
      for (const [id, message] of [
        [txid(), 'Burn transaction not found. Check the transaction ID and try again.'],
        [burnTxid('5e4d'), 'This transaction does not burn any coins.'],
        [burnTxid('01d0'), 'This burn transaction is more than 1 year old and can no longer be used.'],
      ]) {
        await input('Burn transaction ID').fill(id);
        const checked = page.waitForResponse((r) => r.url().includes('deploy.check_burn'));
        await button('Check burn').click();
        await checked;
        await expectFieldError('Burn transaction ID', message);
        expect(await counter().textContent()).toBe('Step 7 of 9');
      }
      await input('Burn transaction ID').fill(example);
      await button('Check burn').click();
      await expectStep(9, 9);
      await button('Previous').click();
      await expectStep(7, 9);
      const burn = burnTxid();
      await input('Burn transaction ID').fill(burn);
      await button('Check burn').click();
      await expectStep(9, 9);

      await button('Deploy').click();
      await expectFieldError('Transaction ID', 'Transaction ID required.');
      const collateral = txid();
      await input('Transaction ID').fill(collateral);
      const { server_id } = await deploy();
      // The masternode.conf line carries the collateral and the checked burn.
      await finish(server_id, () => classicView(collateral, burn));
    },
  );

  it('burn (SIN), beginner: nine steps with the coin’s amounts', { timeout: scaled(30_000) }, async () => {
    await start('sin');
    await expectStep(1, 9);
    await page.getByText('valid for 1 year', { exact: false }).first().waitFor();
    await next(2);
    await page.getByText('Never type your passphrase anywhere but your own wallet.', { exact: false }).waitFor();
    await next(2);
    await input('Your new address').fill('SinAddressTyped');
    await page.getByText('sendtoaddress SinAddressTyped 1000025', { exact: true }).waitFor();
    await next(2);
    await expectStep(7, 9);
    await input('Burn transaction ID').fill(burnTxid());
    await button('Check burn').click();
    await expectStep(8, 9);
    await input('Your other address').fill('SinOtherTyped');
    await page.getByText('sendtoaddress SinOtherTyped 10000', { exact: true }).waitFor();
    await next();
    await expectStep(9, 9);
    await button('Previous').click();
    await expectStep(8, 9);
  });

  it('ZEN: three preparation steps, then the t-address ("Address required.")', { timeout: 90_000 }, async () => {
    await start('zen42');
    await expectStep(1, 4);
    await next(3);
    await expectStep(4, 4);
    await button('Deploy').click();
    await expectFieldError('T-address', 'Address required.');
    // Nonsense is refused under the field with the coin's own rule, before anything is sent.
    await input('T-address').fill('hello');
    await button('Deploy').click();
    await expectFieldError('T-address', 'This is not a Horizen address: it should start with zn, t1, zs, zt or t3.');
    await input('T-address').fill(freshAddress('zen42'));
    const { server_id } = await deploy();
    await finish(server_id, () =>
      view('Your Horizen node').getByText('there is nothing to run from your wallet', { exact: false }).waitFor(),
    );
  });

  it('monero type (BDX), advanced: the address rule, migration with the secret key', { timeout: 90_000 }, async () => {
    await start('bdx', 'Advanced/Migration');
    await expectStep(2, 2);
    await button('Deploy').click();
    await expectFieldError('Wallet address', 'Address required.');
    await input('Wallet address').fill('x123');
    await button('Deploy').click();
    await expectFieldError('Wallet address', 'Address is not valid: a Beldex address starts with "b".');
    await input('I want to migrate my masternode from another platform').check();
    await input('Secret key').fill(randomBytes(32).toString('hex'));
    await input('Wallet address').fill(address('b', 95));
    const { server_id } = await deploy();
    // Monero-type: syncing, then the register command, then running (the simulator moves fast).
    await finish(server_id, async () => {
      const v = view('Start your masternode');
      await v
        .getByText('Syncing', { exact: true })
        .or(v.getByLabel('Start command', { exact: true }))
        .or(v.getByText('Congratulations', { exact: true }))
        .first()
        .waitFor();
    });
  });

  it('Energi (NRG), advanced, Cloud plan', { timeout: 90_000 }, async () => {
    await start('nrg', 'Advanced/Migration', 'Cloud');
    await expectStep(2, 2);
    await button('Deploy').click();
    await expectFieldError('Collateral address', 'Address required.');
    await input('Collateral address').fill(freshAddress('nrg'));
    const { server_id } = await deploy();
    await finish(server_id, () =>
      view('Start your Energi masternode').getByRole('link', { name: 'Energi web wallet' }).waitFor(),
    );
  });

  it('3ULL: the license key ("License key required.")', { timeout: 90_000 }, async () => {
    await start('playa3ull');
    await expectStep(1, 2);
    await next();
    await button('Deploy').click();
    await expectFieldError('License key', 'License key required.');
    await input('License key').fill(randomBytes(12).toString('hex').toUpperCase());
    const { server_id } = await deploy();
    await finish(server_id, () =>
      view('Your node').getByText('Your node is deployed and needs no action from you.', { exact: true }).waitFor(),
    );
  });

  it('classic (PIVX), beginner: the payment to yourself with its commands', { timeout: 90_000 }, async () => {
    await start('pivx');
    await expectStep(1, 2);
    // Prerequisites are a reminder only: Next works with nothing ticked.
    await next();
    await expectStep(2, 2);
    for (const c of ['getnewaddress MN1', 'masternode outputs']) await page.getByText(c, { exact: true }).waitFor();
    await input('Your new address').fill('DPivxAddressTyped');
    await page.getByText('sendtoaddress DPivxAddressTyped 10000', { exact: true }).waitFor();
    await button('Deploy').click();
    await expectFieldError('Transaction ID', 'Transaction ID required.');
    await input('Transaction ID').fill('abc');
    await button('Deploy').click();
    await expectFieldError('Transaction ID', OUTPOINT_INVALID);
    const collateral = txid();
    await input('Transaction ID').fill(collateral);
    const { server_id } = await deploy();
    await finish(server_id, () => classicView(collateral));
    // The line holds the node's masternode key in PIVX's format (prefix 212: "Y…"), opened for its owner.
    expect(await view('Start your masternode').getByLabel('masternode.conf', { exact: true }).textContent()).toMatch(
      / Y[1-9A-HJ-NP-Za-km-z]{51} /,
    );

    // Advanced 'Deploy another node' comes back to the guide's step; beginner to the begin step.
    await page.goto('/dashboard/deploy?coin=pivx');
    await button("Let's start").click();
    await next();
    await input('Transaction ID').fill(txid());
    // Two submits in the same instant (before the button can disable): one deploy.
    let sent = 0;
    const count = (r: { url: () => string }) => void (r.url().includes('deploy.deploy_server') && sent++);
    page.on('request', count);
    await page.locator('form.guide-form').evaluate((f: HTMLFormElement) => {
      f.requestSubmit();
      f.requestSubmit();
    });
    await button('Deploy another node').click();
    page.off('request', count);
    expect(sent).toBe(1);
    await button("Let's start").waitFor();
  });

  it('DFI is deployed at once, with "Proceed with configuration"', { timeout: 60_000 }, async () => {
    await start('defi', 'Advanced/Migration');
    await expectStep(2, 2);
    await input('Transaction ID').fill(txid());
    const { server_id } = await deploy();
    await page.getByRole('heading', { name: 'Setup completed!' }).waitFor();
    expect(await page.getByText('Click your node in the right pane').count()).toBe(0);
    await page.getByRole('link', { name: 'Proceed with configuration' }).click();
    await onConfigTab(server_id, () =>
      view('Create your DeFiChain masternode').getByLabel('defi.conf of your hosted node', { exact: true }).waitFor(),
    );

    // Advanced: 'Deploy another node' goes back to the guide's Advanced step.
    await start('defi', 'Advanced/Migration');
    await input('Transaction ID').fill(txid());
    await deploy();
    await button('Deploy another node').click();
    await expectStep(2, 2);
  });

  it('Satori: 21 neurons in one deploy, one queue item per node', { timeout: 120_000 }, async () => {
    await start('satori');
    await next();
    await expectStep(2, 2);
    await button('Deploy').click();
    await expectFieldError('Reward address', 'Address required.');
    await input('Reward address').fill('abc');
    await button('Deploy').click();
    await expectFieldError('Reward address', 'This is not an Evrmore address: it should start with E or e.');
    await input('Reward address').fill(MAINNET.evr);
    await input('Number of neurons').fill('21');
    const { server_id, server_ids } = await deploy();
    expect(server_ids).toHaveLength(21);
    await expect
      .poll(
        () =>
          page
            .locator('.queue-item')
            .evaluateAll(
              (els, ids) => ids.filter((id) => els.some((e) => e.getAttribute('data-mn') === id)).length,
              server_ids,
            ),
        { timeout: scaled(30_000) },
      )
      .toBe(21);
    await finish(server_id, () =>
      view('Start your masternode')
        .getByText('There is nothing to run for this node: it needs no start command from your wallet.', {
          exact: true,
        })
        .waitFor(),
    );
  });

  it(
    'validator (ETH), advanced: the upload checks with their messages, per-file results, Deploy more',
    { timeout: 120_000 },
    async () => {
      const password = 'keystore password 1';
      const keystore = async () => {
        const sk = bls12_381.utils.randomPrivateKey();
        const pbkdf2 = defaultPbkdfModule();
        const ks = await create(password, sk, bls12_381.getPublicKey(sk), 'm/12381/3600/0/0/0', null, {
          ...pbkdf2,
          params: { ...pbkdf2.params, c: 2048 },
        });
        return Buffer.from(JSON.stringify(ks));
      };
      await start('eth', 'Advanced/Migration');
      await expectStep(4, 5);
      await button('Deploy').click();
      await expectFieldError('Keystore files', 'Please select at least one file');
      await expectFieldError('Keystore password', 'Password required');
      await expectFieldError('Fee recipient', 'Address required');
      await input('Fee recipient').fill('0x1234');
      await expectFieldError('Fee recipient', 'Invalid address');

      const files = input('Keystore files');
      const eleven = Array.from({ length: 11 }, (_, i) => ({
        name: `keystore-${i}.json`,
        mimeType: 'application/json',
        buffer: Buffer.from('{}'),
      }));
      await files.setInputFiles(eleven);
      await expectFieldError('Keystore files', 'You can upload up to 10 files');

      await files.setInputFiles([
        { name: 'keystore-m_12381_3600_0_0_0.json', mimeType: 'application/json', buffer: await keystore() },
      ]);
      await input('Keystore password').fill(password);
      const fee = '0x' + randomBytes(20).toString('hex');
      await input('Fee recipient').fill(fee);
      const { server_id } = await deploy();
      await expectStep(5, 5);
      const result = page.locator('.keystore-results li[data-file="keystore-m_12381_3600_0_0_0.json"]');
      expect(await result.getAttribute('class')).toBe('text-green');
      await page.getByRole('heading', { name: 'Setup completed!' }).waitFor({ timeout: scaled(30_000) });
      await button('Deploy more').click();
      await expectStep(4, 5);
      await page.goto('/dashboard/deploy?coin=eth');
      await page
        .locator(`.queue-item[data-mn="${server_id}"]`)
        .getByRole('link', { name: 'Click here to continue' })
        .click({ timeout: scaled(30_000) });
      await onConfigTab(server_id, async () => {
        await view('Change the fee recipient').getByLabel('New fee recipient').waitFor();
        expect(await page.getByTestId('fee-recipient').textContent()).toBe(fee);
      });
    },
  );
});
