import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from './support/server';
import { freshUser } from './support/users';

// The first-run link in the start log of the real server (src/server/auth/README.md):
// under PUBLIC_URL, a new one at each start while no operator exists, none after.

let s: TestServer | undefined;
afterEach(() => stopTestServer(s));

const printed = (server: TestServer) =>
  server.logLines.filter((l) => l.includes('setup_url')).map((l) => JSON.parse(l) as Record<string, string>);

const status = (server: TestServer, token: string) =>
  fetch(`${server.url}/trpc/setup.status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('first-run link at start', () => {
  it('prints the link under PUBLIC_URL while no operator exists, and none once one does', async () => {
    const dataDir = tempDataDir();
    s = await startTestServer({ PUBLIC_URL: 'https://nodes.example.test' }, { dataDir });
    const [line] = printed(s);
    expect(line.level).toBe('warn');
    expect(line.msg).toBe('no operator account yet: open this link within an hour to create it');
    const m = /^https:\/\/nodes\.example\.test\/setup\/([\w-]{40,})$/.exec(line.setup_url);
    expect(m).not.toBeNull();
    const first = m![1];
    // The page is the web app's, and the link answers open over HTTP.
    const page = await fetch(`${s.url}/setup/${first}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await status(s, first)).body.result.data.state).toBe('open');

    // A restart prints a new link and voids the older one.
    await stopTestServer(s, { keepData: true });
    s = await startTestServer({ PUBLIC_URL: 'https://nodes.example.test' }, { dataDir });
    const second = /\/setup\/([\w-]+)$/.exec(printed(s)[0].setup_url)![1];
    expect(second).not.toBe(first);
    expect((await status(s, first)).body.result.data.state).toBe('invalid');

    // With an operator (the CLI way), the next start prints nothing and the link says setup is done.
    const u = await freshUser(s.deps, { prefix: 'op' });
    expect(await runCli(['users', 'promote', u.username], { DATA_DIR: dataDir }, { out: () => {} })).toBe(0);
    expect((await status(s, second)).body.result.data.state).toBe('done');
    await stopTestServer(s, { keepData: true });
    s = await startTestServer({ PUBLIC_URL: 'https://nodes.example.test' }, { dataDir });
    expect(printed(s)).toEqual([]);
  }, 60_000);
});
