import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliRun } from '../support/cli';
import { pidsMatching, waitFor } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { Authenticator, browserSession, logInWithCode } from './browser';

// The console's Restart on the Fleet page against the real server and its control loop
// (built client in dist/client: run `npm run build` first): it waits for the loop's answer
// and shows the real outcome, success or the engine's reason.
const dataDir = tempDataDir('nodekeep-e2e-restart-');
const env = fastFleetEnv(dataDir);
let server: TestServer;
const session = browserSession(() => server.url);
let operator: FreshUser;
// One authenticator for the file: it knows which codes it gave, so a second login waits for a fresh one.
let authenticator: Authenticator;

const cli = (...args: string[]) => cliRun(args, { DATA_DIR: dataDir, ...env });
const nodeRow = (id: string) =>
  server.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  await session.launch();
  operator = await freshUser(server.deps, { prefix: 'op', tfa: true });
  authenticator = new Authenticator(operator.tfaSecret!);
  expect((await cli('users', 'promote', operator.username)).code).toBe(0);
});
afterEach(session.assertNoPageErrors);
afterAll(async () => {
  await session.close();
  await stopTestServer(server);
  expect(pidsMatching(dataDir)).toEqual([]);
});

async function liveNode() {
  const owner = await freshUser(server.deps);
  const created = await cli('fleet', 'create', 'dash', '--user', owner.username, '--plan', 'cloud');
  expect(created.code).toBe(0);
  const id = /node (\S+) requested/.exec(created.out)![1];
  await waitFor(async () => (await nodeRow(id)).first_answer_at, 30_000, 'the daemon answers');
  return id;
}

describe("the console's Restart", () => {
  it('says a healthy node restarted and answers, and why a node whose daemon is gone could not be', async () => {
    const healthy = await liveNode();
    const gone = await liveNode();
    const page = await session.newPage();
    await logInWithCode(page, operator, authenticator);
    await page.goto('/console/fleet');

    await page.getByRole('button', { name: healthy, exact: true }).click();
    const panel = page.getByLabel(`Node ${healthy}`);
    await panel.getByRole('button', { name: 'Restart', exact: true }).click();
    await panel.getByText(`${healthy} restarted; its daemon answers`).waitFor();

    fs.rmSync(path.join(dataDir, 'fleet', 'local', gone), { recursive: true, force: true });
    await page.getByRole('button', { name: gone, exact: true }).click();
    const gonePanel = page.getByLabel(`Node ${gone}`);
    await gonePanel.getByRole('button', { name: 'Restart', exact: true }).click();
    await gonePanel
      .getByRole('alert')
      .getByText(`${gone} could not be restarted: local engine has no node ${gone}`)
      .waitFor();
    expect(await gonePanel.getByText('restarted; its daemon answers').count()).toBe(0);
  }, 120_000);

  it('destroys a node only after the operator confirms the dialog that names it and its owner; Cancel keeps it', async () => {
    const id = await liveNode();
    const before = await nodeRow(id);
    const owner = await server.deps.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', before.user_id)
      .executeTakeFirstOrThrow();
    const page = await session.newPage();
    await logInWithCode(page, operator, authenticator);
    await page.goto('/console/fleet');
    await page.getByRole('button', { name: id, exact: true }).click();
    const panel = page.getByLabel(`Node ${id}`);
    await panel.getByLabel('Reason for destroying').fill('Abuse report 42');
    await panel.getByRole('button', { name: 'Destroy', exact: true }).click();
    const ask = page.getByRole('dialog', { name: `Destroy ${id}?` });
    expect(await ask.getByTestId('confirm-effect').innerText()).toBe(
      `${id}, the ${before.coin_id} node of ${owner.username}, is destroyed with its data. This cannot be undone.`,
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await nodeRow(id)).state).toBe(before.state);
    expect(await panel.getByRole('alert').count()).toBe(0);

    await panel.getByRole('button', { name: 'Destroy', exact: true }).click();
    await ask.getByRole('button', { name: 'Destroy', exact: true }).click();
    await panel.getByText('The node is being destroyed.').waitFor();
    expect(['deleting', 'deleted']).toContain((await nodeRow(id)).state);
  }, 120_000);
});
