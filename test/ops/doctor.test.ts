import fs from 'node:fs';
import path from 'node:path';
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { checkDataFolder, checkPublicUrl, checkSmtp } from '../../src/server/ops/doctor';
import { checkTimeSync } from '../../src/server/ops/doctor-clock';
import { checkStripe } from '../../src/server/ops/doctor-stripe';
import { loadConfig } from '../../src/server/kernel/config';
import { makeTlsMaterial, startFakeTlsDocker } from '../support/fake-docker';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { startSmtp } from '../support/smtp';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';

// `nodekeep doctor` against real peers: the test SMTP server, one that refuses the
// login, the real server's PUBLIC_URL, the Stripe fake (Stripe is a SaaS), timedatectl
// stand-ins. Deposit daemons and Docker hosts: test/ops/doctor-peers.test.ts.
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_doctor',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_doctor',
  STRIPE_WEBHOOK_SECRET: 'whsec_doctor',
};

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let refusing: SMTPServer;
let refusingPort: number;
let s: TestServer;
let stripe: FakeStripe;

beforeAll(async () => {
  smtp = await startSmtp();
  stripe = await startFakeStripe({ secretKey: STRIPE_KEYS.STRIPE_SECRET_KEY });
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
  await stripe?.close();
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
    const pass = await run({ SMTP_URL: smtp.url, PUBLIC_URL: s.url, ...STRIPE_KEYS, STRIPE_API_BASE: stripe.url });
    expect(pass.lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(pass.lines.find((l) => l.startsWith('ok    Stripe'))).toMatch(/accepted the secret key \(test mode\)/);
    // The time sync line passes or, where timedatectl cannot answer, warns: either way exit 0.
    expect(pass.lines.find((l) => / {2}time sync: /.test(l))).toMatch(/^(ok {4}|warn {2})time sync/);
    expect(pass.lines.at(-1)).toMatch(/^all 8 checks passed/);
    expect(pass.code).toBe(0);
    const failing = await run({
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: s.url,
      ...STRIPE_KEYS,
      STRIPE_SECRET_KEY: 'sk_test_wrong',
      STRIPE_API_BASE: stripe.url,
    });
    expect(failing.code).toBe(1);
    expect(failing.lines.find((l) => l.startsWith('FAIL  SMTP'))).toMatch(/— check SMTP_URL/);
    expect(failing.lines.find((l) => l.startsWith('FAIL  Stripe'))).toMatch(
      /refused STRIPE_SECRET_KEY: Invalid API Key provided.* — set STRIPE_SECRET_KEY/,
    );
  });

  it('Stripe: the secret key accepted by the API base passes; a wrong key, a mixed mode or no answer fail with advice', async () => {
    const config = (env: Record<string, string>) => loadConfig({ ...STRIPE_KEYS, STRIPE_API_BASE: stripe.url, ...env });
    expect(await checkStripe(config({}))).toMatchObject({ ok: true, detail: expect.stringContaining('test mode') });
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/balance' });
    const wrong = await checkStripe(config({ STRIPE_SECRET_KEY: 'sk_test_other' }));
    expect(wrong).toMatchObject({ ok: false, advice: expect.stringContaining('set STRIPE_SECRET_KEY') });
    expect(wrong.detail).toMatch(/refused STRIPE_SECRET_KEY: Invalid API Key/);
    expect(wrong.detail).not.toContain('sk_test_other');
    const mixed = await checkStripe(config({ STRIPE_PUBLISHABLE_KEY: 'pk_live_doctor' }));
    expect(mixed).toMatchObject({ ok: false, detail: expect.stringContaining('a live key') });
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = await checkStripe(config({ STRIPE_API_BASE: `http://127.0.0.1:${freePort}` }), 3000);
    expect(down).toMatchObject({ ok: false, advice: expect.stringContaining('check STRIPE_API_BASE') });
    expect(await checkStripe(loadConfig({}))).toMatchObject({ ok: true, detail: expect.stringContaining('off') });
  });

  it('time sync: timedatectl saying yes passes, no fails with advice, no answer is a warning that says it could not tell', async () => {
    const dir = tempDataDir('nodekeep-timedatectl-');
    const stub = (name: string, script: string) => {
      const file = `${dir}/${name}`;
      fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      return file;
    };
    const args = stub('args', 'echo "$@" > "$(dirname "$0")/seen"; echo yes');
    expect(await checkTimeSync(args)).toMatchObject({ ok: true, detail: expect.stringContaining('synchronized') });
    expect(fs.readFileSync(`${dir}/seen`, 'utf8').trim()).toBe('show -p NTPSynchronized --value');
    const no = await checkTimeSync(stub('no', 'echo no'));
    expect(no).toMatchObject({ ok: false, advice: expect.stringContaining('timedatectl set-ntp true') });
    // As in a container without systemd as PID 1.
    const noBus = await checkTimeSync(
      stub(
        'nobus',
        'echo "System has not been booted with systemd as init system (PID 1). Can\'t operate." >&2; exit 1',
      ),
    );
    expect(noBus).toMatchObject({ ok: true, warning: true });
    expect(noBus.detail).toMatch(/^could not tell whether the clock is synchronized: System has not been booted/);
    const missing = await checkTimeSync(`${dir}/not-installed`);
    expect(missing).toMatchObject({ ok: true, warning: true, detail: expect.stringContaining('is not installed') });
    fs.rmSync(dir, { recursive: true });
  });

  it('a TLS Docker host: passes over TLS with its client certificate, fails with what to do when the host presents another CA', async () => {
    const dir = fs.mkdtempSync(path.join(s.dataDir, 'doctor-tls-'));
    const m = makeTlsMaterial(dir);
    let docker = await startFakeTlsDocker(m);
    const port = Number(new URL(docker.url).port);
    try {
      const cli = (...args: string[]) => {
        const lines: string[] = [];
        return runCli(args, { DATA_DIR: s.dataDir }, { out: (l) => lines.push(l) }).then((code) => ({ code, lines }));
      };
      const tlsFiles = [
        '--tls-ca',
        `${dir}/ca.pem`,
        '--tls-cert',
        `${dir}/client.pem`,
        '--tls-key',
        `${dir}/client.key`,
      ];
      expect(
        (
          await cli(
            'hosts',
            'add',
            'tlsdoc',
            '--engine',
            'docker',
            '--url',
            docker.url,
            '--ipv4',
            '192.0.2.41',
            ...tlsFiles,
          )
        ).code,
      ).toBe(0);
      const hostLine = async () => (await cli('doctor')).lines.find((l) => l.includes('host tlsdoc:'));
      expect(await hostLine()).toBe(
        `ok    host tlsdoc: ${docker.url} answers over TLS, 0 nodes of this platform on it`,
      );
      // The host's certificates were replaced by another CA's: this side no longer trusts it.
      await docker.close();
      docker = await startFakeTlsDocker(
        makeTlsMaterial(fs.mkdtempSync(path.join(s.dataDir, 'doctor-tls-other-'))),
        port,
      );
      expect(await hostLine()).toMatch(
        /^FAIL {2}host tlsdoc: .*certificate.* — check that https:\/\/127\.0\.0\.1:\d+ is reachable from here and that its CA, client certificate and key are current/,
      );
    } finally {
      await docker.close();
    }
  });
});
