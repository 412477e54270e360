import crypto from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { insertEvent } from '../../src/server/events/outbox';
import { DELETE_REASONS } from '../../src/shared/schemas/nodes';
import { EIP55_MISMATCH } from '../../src/shared/evm-address';
import { MAINNET } from '../support/addresses';
import { makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';
import { pidsMatching } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { at, browserSession, screenshot, logInLive, downloadText } from './browser';
import { fastFleetEnv } from '../support/fast-fleet';

// The node page's actions in Chromium against a running fleet of simulated daemons:
// alias editing, the delete dialog, a DIP003 node's start form and a validator's fee
// form. Run `npm run build` first.

const dataDir = tempDataDir('nodekeep-e2e-nodepage-');
const fleetEnv = fastFleetEnv(dataDir);
const env = fleetEnv;

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { id: 0, username: '', password: '', token: '' };

type NodeData = {
  mn_id: string;
  state: string;
  alias: string | null;
  output_text: string;
  setup: { view: string; fee_recipient: string | null; fields: { label: string; value: string }[] };
};

async function api<T>(p: string): Promise<T> {
  const res = await fetch(server.url + p, { headers: { authorization: `Bearer ${owner.token}` } });
  expect(res.status, p).toBe(200);
  return (await res.json()) as T;
}

async function post(p: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(server.url + p, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const nodeData = (mn: string) => api<{ data: NodeData }>(`/api/get_masternode?masternode=${mn}`).then((r) => r.data);
const listedIds = () =>
  api<{ masternodes: { mn_id: string }[] }>('/api/get_masternodes').then((r) => r.masternodes.map((n) => n.mn_id));

/** A node made through the fleet, as the operator's CLI makes it. */
async function createNode(coin: string, plan: 'cloud' | 'dedicated' = 'cloud'): Promise<string> {
  const lines: string[] = [];
  const code = await runCli(
    ['fleet', 'create', coin, '--user', owner.username, '--plan', plan],
    { DATA_DIR: dataDir, ...env },
    { out: (l) => lines.push(l) },
  );
  expect(code, lines.join('\n')).toBe(0);
  const mn = /node (\S+) requested/.exec(lines.join('\n'))![1];
  await expect.poll(listedIds, { timeout: 30_000 }).toContain(mn);
  return mn;
}

/** A validator deployed as a customer deploys it: a keystore (made by @chainsafe/bls-keystore) uploaded with its password. */
async function deployValidator(): Promise<{ mn: string; pubkey: string }> {
  const password = 'node page keystore';
  const ks = await makeKeystore(password, smallPbkdf2());
  const res = await fetch(`${server.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}` },
    body: validatorForm({ files: [['validator.json', ks.text]], password }),
  });
  const body = (await res.json()) as { success: boolean; server_id: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.success, JSON.stringify(body)).toBe(true);
  await expect.poll(listedIds, { timeout: 30_000 }).toContain(body.server_id);
  // Running: its validator client (the simulator's) takes fee changes from now on.
  await expect.poll(async () => (await nodeData(body.server_id)).state, { timeout: 30_000 }).toBe('live');
  return { mn: body.server_id, pubkey: ks.pubkey };
}

/** Every tRPC call of a procedure the page sends (batched calls name it in the path). */
function callsTo(page: Page, procedure: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/trpc/') && r.url().includes(procedure)) seen.push(r);
  });
  return seen;
}

/**
 * Makes the page's calls of a procedure fail as a dropped connection would. With `held`,
 * each call waits until the test calls the returned release, so the test sees the page
 * while the call is out however slow the machine is.
 */
async function dropCalls(page: Page, procedure: string, opts: { held?: boolean } = {}): Promise<() => void> {
  let release: () => void = () => {};
  const released = opts.held ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  await page.route(`**/trpc/*${procedure}*`, async (route) => {
    await released;
    await route.abort('connectionfailed');
  });
  return release;
}

/**
 * A witness: a refresh_masternode frame for `mn` makes the page refetch the node; resolves
 * once that refetch has gone out. Whatever the page sent before the frame came (a click's
 * call) went out before it.
 */
async function nodeRefetchSent(page: Page, mn: string): Promise<void> {
  const sent = page.waitForRequest(
    (r) => new URL(r.url()).pathname.startsWith('/trpc/') && r.url().includes('nodes.get_masternode'),
  );
  await insertEvent(server.deps.db, owner.id, 'refresh_masternode', { mn_id: mn });
  await server.deps.hub.poke();
  await sent;
}

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).getByText(text, { exact: true });
const title = (page: Page) => page.getByRole('heading', { level: 1 });

/**
 * What the owner's wallet gives back for this node (`protx register_prepare` with the
 * operator public key the page shows, then `signmessage`): a ProRegTx (version 3, type 1)
 * whose payload names that key, and a 65-byte signature in base64.
 */
async function registration(mn: string): Promise<string> {
  const operatorPub = (await nodeData(mn)).setup.fields.find((f) => f.label === 'Operator public key')?.value;
  expect(operatorPub).toMatch(/^[0-9a-f]{96}$/);
  const tx = `03000100${crypto.randomBytes(40).toString('hex')}${operatorPub}${crypto.randomBytes(32).toString('hex')}`;
  return `${tx} ${crypto.randomBytes(65).toString('base64')}`;
}

let page: Page;

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'nodepage_' }));
  await session.launch();
  page = await session.newPage();
  await logInLive(page, owner);
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('node page actions', () => {
  it(
    'renames a node at once, puts the name back when saving fails, and removes the alias',
    { timeout: 90_000 },
    async () => {
      const mn = await createNode('pivx');
      await page.goto(`/dashboard/masternode/${mn}`);
      await title(page).filter({ hasText: mn }).waitFor();
      const updates = callsTo(page, 'nodes.update_alias');

      // A dropped connection: the new name shows while the call is out, then the old one is back.
      const release = await dropCalls(page, 'nodes.update_alias', { held: true });
      await page.getByRole('button', { name: 'Edit alias' }).click();
      await page.getByLabel('Alias', { exact: true }).fill('Lost name');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await title(page).filter({ hasText: 'Lost name' }).waitFor();
      // A live status change refetches the node while the call is out: the name shown
      // stays the one being saved. The refetch's answer (the server's, without the alias)
      // is given a marker the page shows, the node's problem line: once the marker is on
      // the page, the refetched node has been applied.
      const applied = 'Refetched while the alias is saved';
      await page.route(
        (u) => u.pathname.startsWith('/trpc/') && /nodes\.get_masternode(?!s)/.test(u.pathname),
        async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { result?: { data?: { data?: Record<string, unknown> } } }[];
          for (const r of [body].flat()) {
            const node = r.result?.data?.data;
            if (node?.mn_id === mn) node.problem = applied;
          }
          await route.fulfill({ response, json: body });
        },
        { times: 1 },
      );
      await insertEvent(server.deps.db, owner.id, 'refresh_masternode', { mn_id: mn });
      await server.deps.hub.poke();
      await page.getByText(applied, { exact: true }).waitFor();
      expect(await title(page).innerText()).toContain('Lost name');
      release();
      await toast(page, 'Error updating alias').waitFor();
      await title(page).filter({ hasText: mn }).waitFor();
      await page.unroute('**/trpc/*nodes.update_alias*');

      // The rule is checked before anything is sent.
      const before = updates.length;
      await page.getByRole('button', { name: 'Edit alias' }).click();
      await page.getByLabel('Alias', { exact: true }).fill('bad/name!');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Alias may hold only letters, digits, hyphens, underscores and spaces').waitFor();
      await page.getByLabel('Alias', { exact: true }).fill('x'.repeat(49));
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Alias must be at most 48 characters').waitFor();
      expect(updates.length).toBe(before);

      // Saved: shown at once, toasted, kept by the server.
      await page.getByLabel('Alias', { exact: true }).fill('My PIVX_node-1');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await title(page).filter({ hasText: 'My PIVX_node-1' }).waitFor();
      await toast(page, 'Alias changed to: My PIVX_node-1').waitFor();
      await expect.poll(async () => (await nodeData(mn)).alias).toBe('My PIVX_node-1');
      await screenshot(page, 'node-alias');

      // Empty removes it; the toast goes after 5 s.
      await page.getByRole('button', { name: 'Edit alias' }).click();
      await page.getByLabel('Alias', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await toast(page, 'Alias removed').waitFor();
      await title(page).filter({ hasText: mn }).waitFor();
      await expect.poll(async () => (await nodeData(mn)).alias).toBeNull();
      await toast(page, 'Alias removed').waitFor({ state: 'detached', timeout: 8_000 });
    },
  );

  it(
    'deletes a node: a reason is required, hints, Other words, Error! on failure, the portfolio after success',
    { timeout: 90_000 },
    async () => {
      const mn = await createNode('pivx');
      await page.goto(`/dashboard/masternode/${mn}?tab=delete`);
      const dialog = page.getByRole('dialog', { name: 'Delete masternode' });
      await dialog.waitFor();
      const deletes = callsTo(page, 'nodes.delete_masternode');

      // The fifteen reasons, in the spec's order, after a placeholder.
      const reason = dialog.getByLabel('Reason');
      expect(await reason.locator('option:not([disabled])').allTextContents()).toEqual([...DELETE_REASONS]);

      // Without a reason the button reads as unavailable and sends nothing.
      const button = dialog.getByRole('button', { name: 'Delete node' });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      await button.click({ force: true });
      await nodeRefetchSent(page, mn);
      expect(deletes).toHaveLength(0);

      // Hints: reward times with the FAQ, or live chat.
      await reason.selectOption("I'm not receiving rewards");
      const hint = dialog.getByTestId('reason-hint');
      await hint.filter({ hasText: 'first one often comes after about 3 times' }).waitFor();
      expect(await hint.getByRole('link', { name: 'the FAQ' }).getAttribute('href')).toBe('/faq');
      await reason.selectOption('There is a problem with the node');
      await hint.filter({ hasText: 'live chat answers every day from 7:00 to 21:00 UTC' }).waitFor();
      await reason.selectOption('Moving to Cloud plan');
      expect(await hint.count()).toBe(0);

      // Other asks for the customer's words (up to 1000 characters); without them nothing is sent.
      await reason.selectOption('Other');
      const words = dialog.getByLabel('Your reason');
      expect(await words.getAttribute('maxlength')).toBe('1000');
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      await words.fill('Moving the coins to cold storage');
      expect(await button.getAttribute('aria-disabled')).toBeNull();

      // A failure shows under "Error!" and the node stays.
      await dropCalls(page, 'nodes.delete_masternode');
      await button.click();
      await dialog.getByRole('alert').filter({ hasText: 'Error!' }).waitFor();
      expect(await listedIds()).toContain(mn);
      await screenshot(page, 'node-delete-error', { fullPage: false });
      await page.unroute('**/trpc/*nodes.delete_masternode*');

      // Success: the words are the reason, then the portfolio without the node.
      const sent = page.waitForRequest((r) => r.url().includes('nodes.delete_masternode') && r.method() === 'POST');
      await button.click();
      expect(JSON.stringify((await sent).postDataJSON())).toContain('"reason":"Moving the coins to cold storage"');
      await at(page, '/dashboard/portfolio');
      expect(await listedIds()).not.toContain(mn);
      await expect.poll(() => page.locator(`tr[data-mn="${mn}"]`).count()).toBe(0);
      const gone = await fetch(`${server.url}/api/get_masternode?masternode=${mn}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(gone.status).toBe(404);
    },
  );

  it(
    "starts a DIP003 node from its configuration tab: sign-message form, register_submit, then 'Congratulations' live",
    { timeout: 120_000 },
    async () => {
      // Deployed as a customer deploys it: the collateral's transaction id.
      const txid = crypto.randomBytes(32).toString('hex');
      const deployed = await post('/api/deploy_server', { currency: 'dash', txid, package: 'cloud' });
      expect(deployed.status, JSON.stringify(deployed.json)).toBe(200);
      const mn = String(deployed.json.server_id);
      await expect.poll(listedIds, { timeout: 60_000 }).toContain(mn);
      await expect.poll(async () => (await nodeData(mn)).output_text, { timeout: 60_000 }).toMatch(/\bnot_active\b/);

      // The details table: the operator key (BLS secret) is blurred until the eye is pressed.
      await page.goto(`/dashboard/masternode/${mn}`);
      const details = page.getByRole('table', { name: 'Details' });
      const eye = details.getByRole('button', { name: /^Show / }).first();
      await eye.waitFor();
      const secret = details.getByTestId('secret').first();
      expect(await eye.getAttribute('aria-pressed')).toBe('false');
      expect(await secret.getAttribute('class')).toContain('secret-blurred');
      await eye.click();
      expect(await eye.getAttribute('aria-pressed')).toBe('true');
      expect(await secret.getAttribute('class')).toBeNull();

      await page.getByRole('tab', { name: 'Configuration' }).click();
      await at(page, `/dashboard/masternode/${mn}?tab=config`);
      const view = page.getByRole('region', { name: 'Start your masternode' });
      await view.waitFor();
      // The commands to run in the customer's own wallet, copyable; the one that needs their
      // own owner and voting addresses asks for them and shows once they are typed.
      expect(await view.getByRole('button', { name: /^Copy / }).count()).toBeGreaterThan(0);
      await view
        .getByText(
          'Prepare the registration: fill in owner address, voting address and payout address above to see the command.',
        )
        .waitFor();
      await view.getByLabel('Owner address', { exact: true }).fill('XownerTyped');
      await view.getByLabel('Voting address', { exact: true }).fill('XvotingTyped');
      await view.getByLabel('Payout address', { exact: true }).fill('XpayoutTyped');
      const prepare = view
        .getByRole('region')
        .or(view.locator('pre'))
        .filter({ hasText: /^protx register_prepare / });
      await prepare.first().waitFor();
      expect(await prepare.first().textContent()).toMatch(/ XownerTyped [0-9a-f]{96} XvotingTyped 0 XpayoutTyped$/);
      expect(await view.textContent()).not.toMatch(/<[A-Za-z ]+>/);
      const field = view.getByLabel('Prepared transaction and signature');

      // Nothing pasted: said under the field, nothing sent.
      const submits = callsTo(page, 'nodes.register_submit');
      await view.getByRole('button', { name: 'Start node' }).click();
      await view.getByText('Paste the result and the signature.').waitFor();
      expect(submits).toHaveLength(0);

      // What `protx register_prepare` returned and the collateral address's signature.
      await field.fill(await registration(mn));
      await screenshot(page, 'node-config-dip003');
      await view.getByRole('button', { name: 'Start node' }).click();
      await view.getByText('Congratulations', { exact: true }).waitFor({ timeout: 30_000 });
      await view
        .getByText(
          'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.',
        )
        .waitFor();
      const after = await nodeData(mn);
      expect(after.output_text).toMatch(/\bactive\b/);
      expect(after.output_text).not.toMatch(/\bnot_active\b/);
      await screenshot(page, 'node-config-dip003-started');
    },
  );

  it(
    "follows a start sent from elsewhere (an API script): the 'started' event flips the open view",
    { timeout: 120_000 },
    async () => {
      const txid = crypto.randomBytes(32).toString('hex');
      const deployed = await post('/api/deploy_server', { currency: 'dash', txid, package: 'cloud' });
      expect(deployed.status, JSON.stringify(deployed.json)).toBe(200);
      const mn = String(deployed.json.server_id);
      await expect
        .poll(async () => (await listedIds()).includes(mn) && (await nodeData(mn)).output_text, { timeout: 60_000 })
        .toMatch(/\bnot_active\b/);

      await page.goto(`/dashboard/masternode/${mn}?tab=config`);
      const view = page.getByRole('region', { name: 'Start your masternode' });
      await view.getByLabel('Prepared transaction and signature').waitFor();
      await page.evaluate(() => ((window as unknown as { stayedLoaded: boolean }).stayedLoaded = true));
      const started = await post('/api/register_submit', { mn, output: await registration(mn) });
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      await view.getByText('Congratulations', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { stayedLoaded?: boolean }).stayedLoaded)).toBe(true);
    },
  );

  it(
    'checks a validator fee recipient with the spec messages and confirms a change with a toast that stays',
    { timeout: 90_000 },
    async () => {
      const { mn } = await deployValidator();
      await page.goto(`/dashboard/masternode/${mn}?tab=config`);
      const form = page.getByRole('region', { name: 'Change the fee recipient' });
      await form.waitFor();
      // Headed as what it is: a validator, not a masternode.
      expect(await page.locator('.node-header-text p.muted').textContent()).toMatch(/^(ETH|GNO) Validator$/);
      const input = form.getByLabel('New fee recipient');
      const submit = form.getByRole('button', { name: 'Change fee recipient' });
      const updates = callsTo(page, 'nodes.update_validator_fee');

      // Required once a submit is tried; then 0x + 40 hex.
      expect(await form.getByText('Address required', { exact: true }).count()).toBe(0);
      await submit.click();
      await form.getByText('Address required', { exact: true }).waitFor();
      await input.fill('0x1234');
      await form.getByText('Invalid address', { exact: true }).waitFor();
      await input.fill('0x' + 'g'.repeat(40));
      await form.getByText('Invalid address', { exact: true }).waitFor();
      // EIP-55's example with one letter's case changed: the checksum, not the shape, is wrong, and the field says so.
      await input.fill('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
      await form.getByText(EIP55_MISMATCH, { exact: true }).waitFor();
      await input.fill('0x' + 'g'.repeat(40));
      await form.getByText('Invalid address', { exact: true }).waitFor();
      await submit.click();
      expect(updates).toHaveLength(0);
      const fee = '0x' + crypto.randomBytes(20).toString('hex');
      await input.fill(fee);
      expect(await form.locator('.field-error').count()).toBe(0);

      // A network failure: the message beside the button; submit is ignored while it shows; typing clears it.
      await dropCalls(page, 'nodes.update_validator_fee');
      await submit.click();
      await form.getByText('Something went wrong. Please try again or contact support.').waitFor();
      const tried = updates.length;
      await submit.click();
      await nodeRefetchSent(page, mn);
      expect(updates.length).toBe(tried);
      await input.fill(fee + ' ');
      await input.fill(fee);
      expect(await form.getByText('Something went wrong. Please try again or contact support.').count()).toBe(0);
      await page.unroute('**/trpc/*nodes.update_validator_fee*');

      // Success: a toast that stays until OK, and the fee recipient shown changes. The
      // toast's staying is proven on the page's clock (installed before it shows, so its
      // timer, if it had one, is the clock's), moved past the 5 s of an ordinary toast.
      await page.clock.install();
      await submit.click();
      const messages = page.getByRole('region', { name: 'Messages' });
      const ok = messages.getByRole('button', { name: 'OK' });
      await ok.waitFor();
      await page.getByTestId('fee-recipient').filter({ hasText: fee }).waitFor();
      await page.clock.runFor(6_000);
      expect(await ok.count()).toBe(1);
      await screenshot(page, 'node-config-validator');
      await ok.click();
      expect(await ok.count()).toBe(0);
      await expect.poll(async () => (await nodeData(mn)).setup.fee_recipient?.toLowerCase()).toBe(fee);
    },
  );

  it(
    'shows quick-setup steps only for a Raptoreum fee address, with it and the node’s ip:port filled in',
    { timeout: 90_000 },
    async () => {
      const mn = await createNode('rtm');
      await page.goto(`/dashboard/masternode/${mn}?tab=config`);
      const view = page.getByRole('region', { name: 'Quick setup' });
      const fee = view.getByLabel('Fee address');
      await fee.fill('R'.repeat(33));
      expect(await view.getByLabel('Quick setup result').count()).toBe(0);
      // 34 characters, but not an address: said under the field, and no steps.
      await fee.fill('R'.repeat(34));
      await view
        .getByText('This Raptoreum address does not check out (its checksum does not match): check for a typo.')
        .waitFor();
      expect(await view.getByLabel('Quick setup result').count()).toBe(0);
      await fee.fill(MAINNET.rtm);
      await view.getByLabel('Quick setup result').waitFor();
      // A node made by the operator's CLI has no collateral on record: the page asks for it.
      await view.getByLabel('Collateral transaction ID', { exact: true }).fill('ab'.repeat(32));
      await view.getByLabel('Collateral output index', { exact: true }).fill('1');
      // The command carries what was typed and the node's address with Raptoreum's P2P port: no placeholder left.
      const command = view.getByText(/^protx quick_setup /);
      expect(await command.textContent()).toMatch(
        new RegExp(`^protx quick_setup ${'ab'.repeat(32)} 1 \\S+:10226 ${MAINNET.rtm}$`),
      );
      expect(await view.textContent()).not.toMatch(/[{}]|<[A-Za-z ]+>/);
      await fee.fill(`${MAINNET.rtm}x`);
      expect(await view.getByLabel('Quick setup result').count()).toBe(0);
    },
  );

  it(
    'quick setup: an empty result sends nothing, the start shows under way, then the node started',
    { timeout: 90_000 },
    async () => {
      const mn = await createNode('rtm');
      await page.goto(`/dashboard/masternode/${mn}?tab=config`);
      const view = page.getByRole('region', { name: 'Quick setup' });
      await view.getByLabel('Fee address').fill(MAINNET.rtm);
      const result = view.getByLabel('Quick setup result');
      const start = view.getByRole('button', { name: 'Start node' });
      const sends = callsTo(page, 'nodes.quick_setup');

      // Empty: the button only looks disabled, and nothing is sent.
      expect(await start.getAttribute('aria-disabled')).toBe('true');
      await start.click({ force: true });
      expect(sends).toHaveLength(0);

      // The daemon's restart with the key is held, so the page is seen while it is under way.
      const fleet = server.deps.fleet;
      const setKey = fleet.setOperatorKey.bind(fleet);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let reached!: () => void;
      const restarting = new Promise<void>((r) => (reached = r));
      fleet.setOperatorKey = async (node, key) => {
        reached();
        await held;
        return setKey(node, key);
      };
      try {
        const key = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
        await result.fill(`smartnodeblsprivkey=${key}`);
        await start.click();
        await restarting;
        await view.getByText('Your node is restarting with its key.', { exact: false }).waitFor();
        expect(await result.count()).toBe(0);
        await screenshot(page, 'node-config-quick-setup-starting');
        release();
      } finally {
        fleet.setOperatorKey = setKey;
        release();
      }
      // Started: the page follows it live.
      await view.getByText('Congratulations', { exact: true }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'node-config-quick-setup-started');
    },
  );

  it("reads a governance coin's proposals and says when a coin has none", { timeout: 90_000 }, async () => {
    const pivx = await createNode('pivx');
    await page.goto(`/dashboard/masternode/${pivx}?tab=proposals`);
    await page.getByText('PIVX has no governance proposals.').waitFor();

    const dash = await createNode('dash');
    await page.goto(`/dashboard/masternode/${dash}?tab=proposals`);
    const table = page.getByRole('table', { name: 'Proposals' });
    await table.waitFor({ timeout: 30_000 });
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Name',
      'Budget',
      'Start',
      'End',
      'Yes',
      'No',
      'Abstain',
      'Status',
    ]);
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it(
    'stops and deletes a validator, then offers its EIP-3076 slashing-protection file',
    { timeout: 90_000 },
    async () => {
      const { mn, pubkey } = await deployValidator();
      // What the live socket brings the page.
      const frames: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
      await page.goto(`/dashboard/masternode/${mn}?tab=delete`);
      const dialog = page.getByRole('dialog', { name: 'Delete masternode' });
      await dialog.getByText('The validator is stopped before it is deleted.', { exact: false }).waitFor();
      await dialog.getByLabel('Reason').selectOption('I will deploy another node');
      // The server marks the node deleted and tells the page before it answers (the answer
      // waits for the validator's stop, seconds on a loaded machine). The answer is held
      // here until the page has had that news: its refetch finds the node gone, and the
      // page must stay for the file all the same (it went to /dashboard, and the file was lost).
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/trpc/*nodes.delete_masternode*', async (route) => {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      });
      const seen = frames.length;
      const nodeReads: Request[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/trpc/') && /nodes\.get_masternode(?!s)/.test(r.url()))
          nodeReads.push(r);
      });
      await dialog.getByRole('button', { name: 'Delete node' }).click();
      await expect
        .poll(() => frames.slice(seen).some((f) => f.includes('refresh_masternodes')), { timeout: 30_000 })
        .toBe(true);
      // Witness: a later frame whose read takes the same path as the refresh's. Live events
      // are read in coalesced windows (app/liveQueries.ts) in the order they came, so once
      // the notification list's read for a later frame has gone out, the node read the
      // refresh asked for (the one that finds it gone and took the page away) has gone out
      // too, if the page makes one. Such a read is answered, then a second frame's read is
      // answered after it, before the address is read.
      const witness = async () => {
        const read = page.waitForRequest((r) => /notifications\.get_notifications/.test(r.url()));
        await insertEvent(server.deps.db, owner.id, 'refresh_notifications', {});
        await server.deps.hub.poke();
        await (await read).response();
      };
      await witness();
      await Promise.all(nodeReads.map((r) => r.response()));
      await witness();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/masternode/${mn}`);
      release();

      const done = page.getByRole('dialog', { name: 'Validator deleted' });
      const link = done.getByRole('link', { name: 'Download slashing-protection file' });
      await link.waitFor({ timeout: 45_000 });
      // The page stays for the download; the node is already gone.
      expect(await listedIds()).not.toContain(mn);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`slashing-protection-${mn}.json`);
      const file = JSON.parse(await downloadText(download));
      expect(file.metadata.interchange_format_version).toBe('5');
      expect(file.metadata.genesis_validators_root).toMatch(/^0x[0-9a-f]{64}$/);
      expect(file.data).toHaveLength(1);
      expect(file.data[0].pubkey).toBe(pubkey);
      await done.getByRole('button', { name: 'Go to portfolio' }).click();
      await at(page, '/dashboard/portfolio');
    },
  );
});
