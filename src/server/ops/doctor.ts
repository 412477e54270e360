import fs from 'node:fs';
import { statfs } from 'node:fs/promises';
import type { Config } from '../kernel/config';
import { checkSmtpLogin, SMTP_TIMEOUTS } from '../mail/mailer';
import type { DB } from '../db/open';
import { assertNotNewer, DatabaseTooNew } from '../db/upgrade';
import { migrations } from '../../../migrations/index';
import type { Logger } from '../kernel/log';
import { openSecretBox, type SecretBox } from '../secrets/box';
import { checkTimeSync, TIME_SYNC_ADVICE } from './doctor-clock';
import { checkDeposits } from './doctor-deposits';
import { checkHosts } from './doctor-hosts';
import type { CheckResult } from './doctor-result';
import { checkStripe } from './doctor-stripe';

export type { CheckResult } from './doctor-result';

/** A clock further than this from PUBLIC_URL's Date header is out of sync (TOTP allows 30 s). */
const CLOCK_SKEW_MS = 10_000;
const HTTP_TIMEOUT_MS = 10_000;

/** The data folder: owned by the user running this, and not readable by others (it holds the secrets key). */
export function checkDataFolder(config: Pick<Config, 'dataDir'>, uid = process.getuid?.()): CheckResult {
  const name = 'data folder';
  let st: fs.Stats;
  try {
    st = fs.statSync(config.dataDir);
  } catch {
    return {
      name,
      ok: false,
      detail: `${config.dataDir} does not exist`,
      advice: "start the server once, or set DATA_DIR to the server's folder",
    };
  }
  if (uid !== undefined && st.uid !== uid)
    return {
      name,
      ok: false,
      detail: `${config.dataDir} is owned by uid ${st.uid}, not this user (uid ${uid})`,
      advice: `run doctor as the service user, or chown -R to it: chown -R nodekeep: ${config.dataDir}`,
    };
  const mode = st.mode & 0o777;
  if (mode & 0o007)
    return {
      name,
      ok: false,
      detail: `${config.dataDir} has mode ${mode.toString(8)}: other users can reach it`,
      advice: `chmod 700 ${config.dataDir}`,
    };
  return { name, ok: true, detail: `${config.dataDir}, mode ${mode.toString(8)}` };
}

/** Free space where the data folder is, against HOST_DISK_MIN_FREE_GB. */
export async function checkFreeDisk(config: Pick<Config, 'dataDir' | 'hostDiskMinFreeBytes'>): Promise<CheckResult> {
  const name = 'free disk';
  const s = await statfs(config.dataDir).catch(() => null);
  if (!s) return { name, ok: false, detail: `cannot read ${config.dataDir}`, advice: 'check that DATA_DIR exists' };
  const free = s.bavail * s.bsize;
  const gb = (n: number) => `${(n / 1e9).toFixed(1)} GB`;
  if (free < config.hostDiskMinFreeBytes)
    return {
      name,
      ok: false,
      detail: `${gb(free)} free, below ${gb(config.hostDiskMinFreeBytes)}`,
      advice: 'free space on this disk (old backups, daemon data of removed nodes) or grow it',
    };
  return { name, ok: true, detail: `${gb(free)} free` };
}

/** SMTP_URL: a real connection, and a login when it has credentials. */
export async function checkSmtp(config: Pick<Config, 'smtpUrl'>, timeouts = SMTP_TIMEOUTS): Promise<CheckResult> {
  const name = 'SMTP';
  if (!config.smtpUrl)
    return {
      name,
      ok: false,
      detail: 'SMTP_URL is not set: mail goes to the log only',
      advice: 'set SMTP_URL in the environment file',
    };
  const shown = safeUrl(config.smtpUrl);
  const refused = await checkSmtpLogin(config.smtpUrl, timeouts);
  if (refused)
    return {
      name,
      ok: false,
      detail: `${shown}: ${refused}`,
      advice: 'check SMTP_URL: host, port, user and password (smtps:// for port 465)',
    };
  return { name, ok: true, detail: `${shown}: connected${new URL(config.smtpUrl).username ? ' and logged in' : ''}` };
}

/**
 * PUBLIC_URL answers (with a certificate this machine trusts, when https), and this
 * machine's clock agrees with the Date header it sends.
 */
export async function checkPublicUrl(
  config: Pick<Config, 'publicUrl'>,
  now = () => Date.now(),
): Promise<CheckResult[]> {
  const url = `${config.publicUrl}/readyz`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS), redirect: 'manual' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return [
      {
        name: 'PUBLIC_URL',
        ok: false,
        detail: `${config.publicUrl} did not answer: ${why}`,
        advice: config.publicUrl.startsWith('https')
          ? "check the proxy, DNS and its certificate (certbot renew, or Caddy's automatic TLS)"
          : 'check that the server runs and PUBLIC_URL names how customers reach it',
      },
      { name: 'clock', ok: false, detail: 'not compared: PUBLIC_URL did not answer', advice: 'fix PUBLIC_URL first' },
    ];
  }
  await res.body?.cancel();
  const results: CheckResult[] = [
    res.status < 500
      ? { name: 'PUBLIC_URL', ok: true, detail: `${config.publicUrl} answers (${res.status})` }
      : {
          name: 'PUBLIC_URL',
          ok: false,
          detail: `${config.publicUrl} answers ${res.status}`,
          advice: 'the server is up but not ready: see its log',
        },
  ];
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) {
    results.push({
      name: 'clock',
      ok: false,
      detail: 'PUBLIC_URL sent no Date header',
      advice: 'compare by hand: timedatectl',
    });
  } else {
    // The header has whole seconds: up to a second behind is no skew.
    const skew = now() - date;
    const ok = Math.abs(skew) <= CLOCK_SKEW_MS;
    results.push({
      name: 'clock',
      ok,
      detail: `${Math.round(skew / 1000)} s from PUBLIC_URL's clock`,
      advice: ok ? undefined : TIME_SYNC_ADVICE,
    });
  }
  return results;
}

/** A URL without its password, for a line on the terminal. */
function safeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'SMTP_URL (not a URL)';
  }
}

/**
 * The database against this build, without changing it: doctor is the command an operator
 * runs with a new executable before upgrading, so it reports pending migrations and leaves
 * them to the server's start (which backs the data up first).
 */
export async function checkDatabase(db: DB, dataDir: string): Promise<CheckResult> {
  const name = 'database';
  let applied: string[];
  try {
    applied = await assertNotNewer(db, dataDir);
  } catch (err) {
    if (!(err instanceof DatabaseTooNew)) throw err;
    return { name, ok: false, detail: err.message, advice: 'run doctor from the Nodekeep that serves this folder' };
  }
  // A data folder made ready for the server's first start: nothing to upgrade, nothing
  // (no host, no deposit daemon) to check in it yet.
  if (!applied.length)
    return {
      name,
      ok: true,
      warning: true,
      detail: 'none yet: the server makes it on its first start',
      advice: 'start the server, then run doctor again for the hosts and deposit daemons',
    };
  const pending = Object.keys(migrations).length - applied.length;
  if (pending)
    return {
      name,
      ok: false,
      detail: `from an earlier Nodekeep: ${pending} migration${pending === 1 ? '' : 's'} to run (doctor changes nothing)`,
      advice:
        'restart the server with this version (it backs the data up, then upgrades it), then run doctor again for the hosts and deposit daemons',
    };
  return { name, ok: true, detail: `up to date (${applied.length} migrations)` };
}

/** Every check, in the order the operator fixes things. */
export async function runDoctor(config: Config, db: DB, log: Logger): Promise<CheckResult[]> {
  // Opened only when a sealed secret is read: doctor never makes a key file of its own.
  let box: SecretBox | undefined;
  const lazyBox: Pick<SecretBox, 'open'> = {
    open: (sealed, aad) => (box ??= openSecretBox(config.dataDir, config)).open(sealed, aad),
  };
  const database = await checkDatabase(db, config.dataDir);
  // Hosts and deposit daemons are read from tables an earlier schema may not have yet.
  const current = database.ok && !database.warning;
  const [disk, smtp, stripe, deposits, hosts, publicUrl, timeSync] = await Promise.all([
    checkFreeDisk(config),
    checkSmtp(config),
    checkStripe(config),
    current ? checkDeposits(db, lazyBox) : [],
    current ? checkHosts(db, lazyBox, log) : [],
    checkPublicUrl(config),
    checkTimeSync(),
  ]);
  return [checkDataFolder(config), database, disk, smtp, stripe, ...deposits, ...hosts, ...publicUrl, timeSync];
}
