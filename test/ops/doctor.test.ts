import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { checkDataFolder, checkPublicUrl, checkSmtp } from '../../src/server/ops/doctor';
import { startSmtp } from '../support/smtp';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';

// `nodekeep doctor` against real peers: the test SMTP server, one that refuses the
// login, the real server's PUBLIC_URL.

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let refusing: SMTPServer;
let refusingPort: number;
let s: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
  refusing = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onAuth: (_auth, _session, cb) => cb(new Error('535 Authentication failed')),
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingPort = (refusing.server.address() as AddressInfo).port;
  s = await startTestServer({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await stopTestServer(s);
  await smtp?.close();
  await new Promise<void>((resolve) => refusing?.close(resolve));
});

const fast = { connectionMs: 3000, greetingMs: 3000, socketMs: 3000 };

describe('nodekeep doctor', () => {
  it('data folder: passes at 700 as its owner, fails with advice when others can reach it', () => {
    const dir = tempDataDir();
    fs.chmodSync(dir, 0o700);
    expect(checkDataFolder({ dataDir: dir }).ok).toBe(true);
    fs.chmodSync(dir, 0o755);
    expect(checkDataFolder({ dataDir: dir })).toMatchObject({ ok: false, advice: `chmod 700 ${dir}` });
    expect(checkDataFolder({ dataDir: dir }, 12345)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('uid 12345'),
    });
    fs.rmSync(dir, { recursive: true });
  });

  it('SMTP: logs in to the real server, reports a refused login and a closed port with advice', async () => {
    const ok = await checkSmtp({ smtpUrl: smtp.url.replace('test:test', 'user:pw') }, fast);
    expect(ok).toMatchObject({ ok: true, detail: expect.stringContaining('logged in') });
    expect(ok.detail).not.toContain('pw');
    const refused = await checkSmtp({ smtpUrl: `smtp://user:wrong@127.0.0.1:${refusingPort}` }, fast);
    expect(refused).toMatchObject({ ok: false, advice: expect.stringContaining('check SMTP_URL') });
    expect(refused.detail).toMatch(/Authentication failed/);
    expect(refused.detail).not.toContain('wrong');
    const closed = await checkSmtp({ smtpUrl: 'smtp://127.0.0.1:1' }, fast);
    expect(closed).toMatchObject({ ok: false, detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('PUBLIC_URL and clock: pass against the running server, fail with advice when nothing answers or the clock is off', async () => {
    const good = await checkPublicUrl({ publicUrl: s.url });
    expect(good.map((r) => [r.name, r.ok])).toEqual([
      ['PUBLIC_URL', true],
      ['clock', true],
    ]);
    const skewed = await checkPublicUrl({ publicUrl: s.url }, () => Date.now() + 120_000);
    expect(skewed[1]).toMatchObject({ ok: false, advice: expect.stringContaining('timedatectl set-ntp true') });
    // A port that was just free (fetch refuses well-known ports such as 1 before connecting).
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = await checkPublicUrl({ publicUrl: `http://127.0.0.1:${freePort}` });
    expect(down[0]).toMatchObject({ ok: false, detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('exits 0 only when every check passes, one line per check', async () => {
    const run = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const code = await runCli(
        ['doctor'],
        { DATA_DIR: s.dataDir, HOST_DISK_MIN_FREE_GB: '0.1', ...env },
        { out: (l) => lines.push(l) },
      );
      return { code, lines };
    };
    fs.chmodSync(s.dataDir, 0o700);
    const pass = await run({ SMTP_URL: smtp.url, PUBLIC_URL: s.url });
    expect(pass.lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(pass.lines.at(-1)).toBe('all 5 checks passed');
    expect(pass.code).toBe(0);
    const failing = await run({ SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: s.url });
    expect(failing.code).toBe(1);
    expect(failing.lines.find((l) => l.startsWith('FAIL  SMTP'))).toMatch(/— check SMTP_URL/);
  });
});
