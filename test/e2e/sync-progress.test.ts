import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../../src/server/cli/main';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';
import { browserSession, logInLive } from './browser';

// The node page's sync line in Chromium: a simulated dash node syncing for 60 s. Run `npm run build` first.
const dataDir = tempDataDir('nodekeep-e2e-syncprog-');
const env = fastFleetEnv(dataDir);
const profilesFile = path.join(dataDir, 'daemons.json');
const shipped = JSON.parse(fs.readFileSync(profilesFile, 'utf8'));
for (const p of Object.values<{ run?: string; sync_seconds?: number }>(shipped.profiles))
  if (p.run === 'simulator') p.sync_seconds = 60;
fs.writeFileSync(profilesFile, JSON.stringify(shipped));

let server: TestServer;
const session = browserSession(() => server.url);
const owner = { id: 0, username: '', password: '', token: '' };
let page: Page;

beforeAll(async () => {
  server = await startTestServer(env, { dataDir });
  Object.assign(owner, await fundedUser(server.deps, { prefix: 'syncprog_' }));
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

describe('node page sync progress', () => {
  it('shows the progress line of a syncing node, live, with its estimate', { timeout: 90_000 }, async () => {
    const lines: string[] = [];
    const code = await runCli(
      ['fleet', 'create', 'dash', '--user', owner.username, '--plan', 'cloud'],
      { DATA_DIR: dataDir, ...env },
      { out: (l) => lines.push(l) },
    );
    expect(code, lines.join('\n')).toBe(0);
    const mn = /node (\S+) requested/.exec(lines.join('\n'))![1];
    await page.goto(`/dashboard/masternode/${mn}`);
    const line = page.getByRole('status').filter({ hasText: /^Syncing / });
    await expect
      .poll(() => line.textContent(), { timeout: 30_000 })
      .toMatch(/^Syncing \d+\.\d % — block [\d,]+ of [\d,]+ — (about .+ left|less than a minute left)$/);
  });
});
