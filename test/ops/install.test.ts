import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostSystem } from '../../src/server/runtime/install-system';
import { InstallRefused, parseInstallArgs, runInstall } from '../../src/server/runtime/install';
import { serviceUnitText } from '../../src/server/runtime/unit-file';
import { tempDataDir } from '../support/server';

// `nodekeep install` against a root folder made for the test, with the real useradd and
// systemctl (`--prefix`, `--root`): what it writes, with which modes and owners, what a
// dry run prints, and that a second run changes nothing. test/peers/systemd.test.ts runs
// it on a booted Debian, where it also starts the service.

const asRoot = process.getuid?.() === 0;
const tool = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** A root folder with the account files useradd edits, copied from this machine. */
function newRoot(): string {
  const root = tempDataDir('nodekeep-install-root-');
  fs.mkdirSync(path.join(root, 'etc'), { recursive: true });
  for (const f of ['passwd', 'group', 'shadow', 'gshadow'])
    if (fs.existsSync(`/etc/${f}`)) fs.copyFileSync(`/etc/${f}`, path.join(root, 'etc', f));
  // The login.defs useradd reads for its system uid range.
  if (fs.existsSync('/etc/login.defs')) fs.copyFileSync('/etc/login.defs', path.join(root, 'etc/login.defs'));
  return root;
}

/** Every path under a root with its mode, owner, size and content hash. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const s = fs.lstatSync(full);
      out[path.relative(root, full)] =
        `${s.mode.toString(8)} ${s.uid}:${s.gid} ${s.mtimeMs} ${e.isFile() ? fs.readFileSync(full).toString('base64').length : ''}`;
      if (e.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out;
}

const exe = () => {
  const f = path.join(tempDataDir('nodekeep-install-exe-'), 'nodekeep-linux-x64');
  fs.writeFileSync(f, '#!/bin/sh\necho stand-in\n', { mode: 0o755 });
  return f;
};

async function install(root: string, args: string[], executable: string) {
  const lines: string[] = [];
  await runInstall(
    parseInstallArgs([...args, '--root', root]),
    hostSystem(root),
    { out: (l) => lines.push(l), ask: null },
    executable,
    serviceUnitText(),
  );
  return lines.join('\n');
}

const canRun = asRoot && tool('useradd') && tool('systemctl');

describe.skipIf(!canRun)('nodekeep install into a root folder', () => {
  it('a dry run prints every step and changes nothing', async () => {
    const root = newRoot();
    const before = tree(root);
    const out = await install(root, ['--dry-run', '--public-url', 'https://nodes.example.com'], exe());
    expect(out).toMatch(/^would +create system user nodekeep/m);
    expect(out).toMatch(/^would +create folder \/var\/lib\/nodekeep\/data \(700, nodekeep:nodekeep\)/m);
    expect(out).toMatch(/^would +write environment file \/etc\/nodekeep\/nodekeep\.env/m);
    expect(out).toMatch(/^would +write executable \/usr\/local\/bin\/nodekeep/m);
    expect(out).toMatch(/^would +write systemd unit \/etc\/systemd\/system\/nodekeep\.service/m);
    expect(out).toMatch(/^would +systemctl enable nodekeep\.service/m);
    expect(out).toMatch(/nothing was changed/);
    expect(tree(root)).toEqual(before);
  });

  it('installs the files with their modes and owners, and a second run changes nothing', async () => {
    const root = newRoot();
    const stand = exe();
    const out = await install(
      root,
      ['--public-url', 'https://nodes.example.com', '--mail-from', 'Nodekeep <noreply@example.com>'],
      stand,
    );
    expect(out).toMatch(/^done +created system user nodekeep/m);
    const passwd = fs.readFileSync(path.join(root, 'etc/passwd'), 'utf8');
    const [, , uid, gid, , home, shell] = passwd
      .split('\n')
      .find((l) => l.startsWith('nodekeep:'))!
      .split(':');
    expect([home, shell]).toEqual(['/var/lib/nodekeep', '/usr/sbin/nologin']);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).not.toMatch(/^nodekeep:.*:\/var\/lib\/nodekeep:/m); // only the root's
    const stat = (p: string) => {
      const s = fs.statSync(path.join(root, p));
      return `${(s.mode & 0o7777).toString(8)} ${s.uid}:${s.gid}`;
    };
    expect(stat('var/lib/nodekeep')).toBe(`750 ${uid}:${gid}`);
    expect(stat('var/lib/nodekeep/data')).toBe(`700 ${uid}:${gid}`);
    expect(stat('etc/nodekeep')).toBe(`750 0:${gid}`);
    expect(stat('etc/nodekeep/nodekeep.env')).toBe(`640 0:${gid}`);
    expect(stat('usr/local/bin/nodekeep')).toBe('755 0:0');
    expect(stat('etc/systemd/system/nodekeep.service')).toBe('644 0:0');
    expect(fs.readFileSync(path.join(root, 'usr/local/bin/nodekeep'))).toEqual(fs.readFileSync(stand));
    // The unit is the one the repository tests (deploy/), carried inside the build.
    expect(fs.readFileSync(path.join(root, 'etc/systemd/system/nodekeep.service'), 'utf8')).toBe(
      fs.readFileSync('deploy/nodekeep.service', 'utf8'),
    );
    expect(fs.readlinkSync(path.join(root, 'etc/systemd/system/multi-user.target.wants/nodekeep.service'))).toBe(
      '/etc/systemd/system/nodekeep.service',
    );
    const env = fs.readFileSync(path.join(root, 'etc/nodekeep/nodekeep.env'), 'utf8');
    expect(env).toMatch(/^PUBLIC_URL=https:\/\/nodes\.example\.com$/m);
    expect(env).toMatch(/^MAIL_FROM="Nodekeep <noreply@example\.com>"$/m);
    expect(env).toMatch(/^DATA_DIR=\/var\/lib\/nodekeep\/data$/m);
    expect(env).toMatch(/^HOST=127\.0\.0\.1$/m);
    expect(env).toMatch(/^OPERATOR_TOKEN=\S{32}$/m);
    expect(out).toMatch(/^Nodekeep: https:\/\/nodes\.example\.com /m);

    const installed = tree(root);
    const again = await install(root, ['--public-url', 'https://nodes.example.com'], stand);
    expect(again).not.toMatch(/^(done|would)/m);
    expect(again).toMatch(/^Nothing changed: Nodekeep is installed as asked\.$/m);
    expect(tree(root)).toEqual(installed);
    const dry = await install(root, ['--dry-run'], stand);
    expect(dry).toMatch(/a run would change nothing/);
  });

  it('keeps a value already in the environment file unless --force, and refuses a bad value changing nothing', async () => {
    const root = newRoot();
    const stand = exe();
    await install(root, ['--public-url', 'https://one.example.com'], stand);
    const envFile = path.join(root, 'etc/nodekeep/nodekeep.env');
    const first = fs.readFileSync(envFile, 'utf8');

    const kept = await install(root, ['--public-url', 'https://two.example.com'], stand);
    expect(kept).toMatch(/^kept +PUBLIC_URL as it is in \/etc\/nodekeep\/nodekeep\.env \(--force replaces it/m);
    expect(fs.readFileSync(envFile, 'utf8')).toBe(first);

    const before = tree(root);
    await expect(install(root, ['--public-url', 'not a url', '--force'], stand)).rejects.toThrow(
      /PUBLIC_URL[\s\S]*Nothing was changed/,
    );
    await expect(install(root, ['--port', '99999'], stand)).rejects.toThrow(InstallRefused);
    expect(() => parseInstallArgs(['--colour'])).toThrow(/unknown option --colour/);
    expect(tree(root)).toEqual(before);

    const forced = await install(root, ['--public-url', 'https://two.example.com', '--force'], stand);
    expect(forced).toMatch(/^done +environment file/m);
    const env = fs.readFileSync(envFile, 'utf8');
    expect(env).toMatch(/^PUBLIC_URL=https:\/\/two\.example\.com$/m);
    // Only that line changed: the generated token stays.
    expect(env.replace(/^PUBLIC_URL=.*$/m, '')).toBe(first.replace(/^PUBLIC_URL=.*$/m, ''));
  });
});

describe.skipIf(!tool('systemd-analyze'))('the unit nodekeep install writes', () => {
  it('scores at most 3.0 in systemd-analyze security', () => {
    const dir = tempDataDir('nodekeep-unit-');
    const unit = path.join(dir, 'nodekeep.service');
    fs.writeFileSync(unit, serviceUnitText());
    const out = execFileSync('systemd-analyze', ['security', '--offline=true', unit], { encoding: 'utf8' });
    const score = Number(/Overall exposure level for nodekeep\.service: ([\d.]+)/.exec(out)![1]);
    expect(score).toBeLessThanOrEqual(3.0);
  });
});
