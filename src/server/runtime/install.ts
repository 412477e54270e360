import crypto from 'node:crypto';
import fs from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig } from '../kernel/config';
import type { InstallSystem, Owner } from './install-system';

/**
 * `nodekeep install`: what docs/self-hosting.md's Install, Configure and Run as a service
 * do by hand, as steps that each check first, so a second run changes nothing and
 * `--dry-run` says what a run would do.
 */
export const INSTALL_USAGE = `usage: nodekeep install [--public-url <url>] [--smtp-url <url>] [--mail-from <address>]
                        [--port <port>] [--force] [--dry-run] [--root <dir>]

  Run as root. Creates the nodekeep user and /var/lib/nodekeep, writes
  /etc/nodekeep/nodekeep.env, copies this file to /usr/local/bin/nodekeep, installs the
  systemd unit it carries, enables and starts it.
  --force     replace values already in the environment file with the ones given
  --dry-run   print each step and change nothing
  --root      install into another root folder (an image); the service is enabled, not started
`;

const USER = 'nodekeep';
const HOME = '/var/lib/nodekeep';
const DATA_DIR = `${HOME}/data`;
const ENV_DIR = '/etc/nodekeep';
export const ENV_FILE = `${ENV_DIR}/nodekeep.env`;
const BIN = '/usr/local/bin/nodekeep';
const UNIT = '/etc/systemd/system/nodekeep.service';
const ROOT: Owner = { user: 'root', group: 'root' };
const SERVICE: Owner = { user: USER, group: USER };
const ROOT_SERVICE_GROUP: Owner = { user: 'root', group: USER };

/** The flags that set a variable of the environment file, and what a terminal asks for. */
const FLAGS = {
  '--public-url': { name: 'PUBLIC_URL', ask: 'Public address of the site (https://nodes.example.com)' },
  '--smtp-url': { name: 'SMTP_URL', ask: 'Mail server (smtp://user:password@mail.example.com:587)' },
  '--mail-from': { name: 'MAIL_FROM', ask: 'Sender of the mail (Nodekeep <noreply@example.com>)' },
  '--port': { name: 'PORT', ask: null },
} as const;

export type InstallOptions = {
  values: Record<string, string>;
  force: boolean;
  dryRun: boolean;
  root: string;
};

export class InstallRefused extends Error {}

export function parseInstallArgs(argv: string[]): InstallOptions {
  const opts: InstallOptions = { values: {}, force: false, dryRun: false, root: '/' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    if (flag === '--force') opts.force = true;
    else if (flag === '--dry-run') opts.dryRun = true;
    else if (flag === '--root' || flag in FLAGS) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new InstallRefused(`${flag} needs a value\n\n${INSTALL_USAGE}`);
      if (flag === '--root') opts.root = value;
      else opts.values[FLAGS[flag as keyof typeof FLAGS].name] = value;
    } else throw new InstallRefused(`unknown option ${argv[i]}\n\n${INSTALL_USAGE}`);
  }
  return opts;
}

export type InstallIo = {
  out: (line: string) => void;
  /** Asks a question on a terminal; null when there is none. */
  ask: ((question: string) => Promise<string>) | null;
};

/** A value as the environment file writes it: quoted when it has spaces or quotes. */
const envLine = (name: string, value: string) =>
  /^[\w@%+=:,./-]*$/.test(value) ? `${name}=${value}` : `${name}="${value.replace(/(["\\$`])/g, '\\$1')}"`;

/** The environment file's new text, and which values it keeps that differ from the ones given. */
function mergeEnv(current: string, wanted: Record<string, string>, force: boolean) {
  const have = parseEnv(current) as Record<string, string>;
  const kept: string[] = [];
  const lines = current === '' ? [] : current.replace(/\n$/, '').split('\n');
  for (const [name, value] of Object.entries(wanted)) {
    if (have[name] === value) continue;
    const at = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(l));
    if (at >= 0 && !force) {
      kept.push(name);
      continue;
    }
    if (at >= 0) lines[at] = envLine(name, value);
    else lines.push(envLine(name, value));
  }
  return { text: lines.length ? `${lines.join('\n')}\n` : '', kept };
}

export type InstallResult = { changed: number; url: string };

/**
 * Runs (or with dryRun, prints) the steps. `executable` is the file copied to
 * /usr/local/bin/nodekeep: the running executable, or a test's stand-in.
 */
export async function runInstall(
  opts: InstallOptions,
  sys: InstallSystem,
  io: InstallIo,
  executable: string,
  unitText: string,
): Promise<InstallResult> {
  // Bad input changes nothing: every value is checked as the server would read it.
  const current = sys.read(ENV_FILE)?.toString('utf8') ?? '';
  const inFile = parseEnv(current) as Record<string, string>;
  const values = { ...opts.values };
  for (const flag of Object.values(FLAGS)) {
    if (!flag.ask || values[flag.name] !== undefined || inFile[flag.name] !== undefined || opts.dryRun || !io.ask)
      continue;
    const answer = (await io.ask(`${flag.ask}, or Enter to leave it out: `)).trim();
    if (answer) values[flag.name] = answer;
  }
  const defaults: Record<string, string> = {
    DATA_DIR,
    HOST: '127.0.0.1',
    PORT: '8080',
    OPERATOR_TOKEN: crypto.randomBytes(24).toString('base64url'),
  };
  const wanted: Record<string, string> = { ...values };
  for (const [name, value] of Object.entries(defaults)) if (inFile[name] === undefined) wanted[name] ??= value;
  const merged = mergeEnv(current, wanted, opts.force);
  let cfg;
  try {
    // The values given are checked too when the file keeps its own (no --force).
    loadConfig({ ...(parseEnv(merged.text) as Record<string, string>), ...values });
    cfg = loadConfig({ ...(parseEnv(merged.text) as Record<string, string>) });
  } catch (err) {
    if (err instanceof ConfigError) throw new InstallRefused(`${err.message}\nNothing was changed.`);
    throw err;
  }
  const url = cfg.publicUrl;

  let changed = 0;
  const step = (done: boolean, already: string, would: string, did: string, apply: () => void) => {
    if (done) return io.out(`ok        ${already}`);
    changed++;
    if (opts.dryRun) return io.out(`would     ${would}`);
    apply();
    io.out(`done      ${did}`);
  };
  const sameMode = (file: string, mode: number, owner: Owner) => {
    const s = sys.stat(file);
    const ids = (o: Owner, key: 'uid' | 'gid') =>
      (o[key === 'uid' ? 'user' : 'group'] === 'root' ? 0 : sys.user(o[key === 'uid' ? 'user' : 'group'])?.[key]) ?? -1;
    return !!s && s.mode === mode && s.uid === ids(owner, 'uid') && s.gid === ids(owner, 'gid');
  };
  const dir = (p: string, mode: number, owner: Owner) =>
    step(
      sameMode(p, mode, owner),
      `folder ${p} (${mode.toString(8)}, ${owner.user}:${owner.group})`,
      `create folder ${p} (${mode.toString(8)}, ${owner.user}:${owner.group})`,
      `folder ${p} (${mode.toString(8)}, ${owner.user}:${owner.group})`,
      () => sys.mkdir(p, mode, owner),
    );
  const file = (p: string, content: Buffer | string, mode: number, owner: Owner, what: string) => {
    const same = sys.read(p)?.equals(Buffer.from(content)) ?? false;
    step(
      same && sameMode(p, mode, owner),
      `${what} ${p}`,
      `${sys.read(p) ? (same ? 'set mode and owner of' : 'replace') : 'write'} ${what} ${p}`,
      `${what} ${p} (${mode.toString(8)}, ${owner.user}:${owner.group})`,
      () => sys.write(p, content, mode, owner),
    );
    return !same;
  };

  step(
    sys.user(USER) !== null,
    `user ${USER}`,
    `create system user ${USER} (home ${HOME})`,
    `created system user ${USER}`,
    () => sys.createSystemUser(USER, HOME),
  );
  dir(HOME, 0o750, SERVICE);
  dir(DATA_DIR, 0o700, SERVICE);
  dir(ENV_DIR, 0o750, ROOT_SERVICE_GROUP);
  for (const name of merged.kept)
    io.out(`kept      ${name} as it is in ${ENV_FILE} (--force replaces it with the value given)`);
  const envChanged = file(ENV_FILE, merged.text, 0o640, ROOT_SERVICE_GROUP, 'environment file');
  const binChanged = file(BIN, fs.readFileSync(executable), 0o755, ROOT, 'executable');
  const unitChanged = file(UNIT, unitText, 0o644, ROOT, 'systemd unit');

  const local = sys.root === '/';
  if (unitChanged && local)
    step(false, '', 'systemctl daemon-reload', 'systemctl daemon-reload', () => {
      const r = sys.systemctl(['daemon-reload']);
      if (!r.ok) throw new InstallRefused(`systemctl daemon-reload failed: ${r.out}`);
    });
  step(
    sys.systemctl(['is-enabled', 'nodekeep.service']).out === 'enabled',
    'nodekeep.service enabled',
    'systemctl enable nodekeep.service',
    'nodekeep.service enabled',
    () => {
      const r = sys.systemctl(['enable', 'nodekeep.service']);
      if (!r.ok) throw new InstallRefused(`systemctl enable nodekeep.service failed: ${r.out}`);
    },
  );
  if (local) {
    const active = sys.systemctl(['is-active', 'nodekeep.service']).out === 'active';
    const restart = active && (envChanged || binChanged || unitChanged);
    step(
      active && !restart,
      'nodekeep.service running',
      `systemctl ${restart ? 'restart' : 'start'} nodekeep.service`,
      `nodekeep.service ${restart ? 'restarted' : 'started'}`,
      () => {
        const r = sys.systemctl([restart ? 'restart' : 'start', 'nodekeep.service']);
        if (!r.ok)
          throw new InstallRefused(
            `systemctl ${restart ? 'restart' : 'start'} nodekeep.service failed: ${r.out}\nRead why: journalctl -u nodekeep -n 50`,
          );
      },
    );
  } else io.out(`note      installed into ${sys.root}: the service starts when that system boots`);

  if (opts.dryRun)
    io.out(
      changed
        ? `Dry run: ${changed} steps would change this system; nothing was changed.`
        : 'Dry run: Nodekeep is installed as asked; a run would change nothing.',
    );
  else if (!changed) io.out('Nothing changed: Nodekeep is installed as asked.');
  io.out(
    // The server prints a one-time setup link at each start while no operator exists (auth/first-run.ts).
    `Nodekeep: ${url} (no operator yet? open the one-time setup link the service prints: journalctl -u nodekeep | grep setup)`,
  );
  return { changed, url };
}
