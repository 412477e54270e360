import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { pidsMatching } from './support/daemons';
import { fastFleetEnv } from './support/fast-fleet';
import { liveClient } from './support/live';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { startSmtp } from './support/smtp';
import { freshUser } from './support/users';

// A node really placed on the simulator raises `node_deployed` where `server_created` is emitted.
const dataDir = tempDataDir('nodekeep-notify-fleet-');
const env = fastFleetEnv(dataDir);
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ ...env, SMTP_URL: smtp.url }, { dataDir });
});
afterAll(async () => {
  await stopTestServer(s);
  await smtp.close();
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('node deployed', () => {
  it('is raised with server_created: a toast for the owner, a row in the dropdown and a mail', async () => {
    const owner = await freshUser(s.deps, { prefix: 'deployer' });
    const live = liveClient(s.url, owner.token);
    try {
      await expect.poll(() => live.types()).toContain('sync');
      const lines: string[] = [];
      expect(
        await runCli(
          ['fleet', 'create', 'dash', '--user', owner.username, '--plan', 'cloud'],
          { DATA_DIR: dataDir, ...env },
          { out: (l) => lines.push(l) },
        ),
      ).toBe(0);
      const mnId = /node (\S+) requested/.exec(lines.join('\n'))![1];
      const message = `Your Dash node ${mnId} is deployed and syncing.`;
      await expect
        .poll(() => live.received.find((e) => e.type === 'new_notification')?.payload, { timeout: 15_000 })
        .toEqual({ message, icon: 'check', link: `/dashboard/masternode/${mnId}` });
      // In the same transaction as server_created, and delivered right after it.
      const types = live.types();
      expect(types.indexOf('new_notification')).toBeGreaterThan(types.indexOf('server_created'));
      const list = await fetch(`${s.url}/api/get_notifications`, {
        headers: { authorization: `Bearer ${owner.token}` },
      }).then((r) => r.json());
      expect(list.notifications.map((n: { message: string }) => n.message)).toEqual([message]);
      const mail = await smtp.waitFor(owner.email, /Your Dash node is deployed/);
      expect(mail.text).toContain(message);
      expect(mail.text).toContain(`${s.url}/dashboard/masternode/${mnId}`);
    } finally {
      await live.close();
    }
  });

  it('says deployed and syncing first, then running once the node runs (a family with no start step)', async () => {
    const owner = await freshUser(s.deps, { prefix: 'runner' });
    const lines: string[] = [];
    expect(
      await runCli(
        ['fleet', 'create', 'satori', '--user', owner.username, '--plan', 'cloud'],
        { DATA_DIR: dataDir, ...env },
        { out: (l) => lines.push(l) },
      ),
    ).toBe(0);
    const mnId = /node (\S+) requested/.exec(lines.join('\n'))![1];
    const messages = async () =>
      (
        await fetch(`${s.url}/api/get_notifications`, { headers: { authorization: `Bearer ${owner.token}` } }).then(
          (r) => r.json(),
        )
      ).notifications
        .map((n: { message: string }) => n.message)
        .reverse();
    await expect
      .poll(messages, { timeout: 20_000 })
      .toEqual([
        `Your Satori Network node ${mnId} is deployed and syncing.`,
        `Your Satori Network node ${mnId} is running.`,
      ]);
    const mail = await smtp.waitFor(owner.email, /Your Satori Network node is running/);
    expect(mail.text).toContain(`Your Satori Network node ${mnId} is running.`);
  });
});
