import { execFile } from 'node:child_process';
import type { CheckResult } from './doctor-result';

const TIMEOUT_MS = 5_000;

/** What to do about a clock out of sync, whichever check found it (this one, or doctor's PUBLIC_URL comparison). */
export const TIME_SYNC_ADVICE =
  'turn on time sync: timedatectl set-ntp true, with systemd-timesyncd or chrony installed (2FA codes and charges depend on it)';

/**
 * Is this machine's clock kept in sync (`timedatectl show -p NTPSynchronized`)? 2FA codes,
 * the daily charge's UTC day and certificates all read it. Where timedatectl is missing or
 * cannot answer (no systemd as PID 1: a container, WSL) doctor cannot tell: a warning, not
 * a failure, since the clock may well be kept by the host; PUBLIC_URL's Date header is
 * still compared (the `clock` line).
 */
export function checkTimeSync(command = 'timedatectl'): Promise<CheckResult> {
  const name = 'time sync';
  return new Promise((resolve) => {
    execFile(
      command,
      ['show', '-p', 'NTPSynchronized', '--value'],
      { timeout: TIMEOUT_MS, env: { ...process.env, LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        const answer = stdout.trim();
        if (!err && answer === 'yes')
          return resolve({ name, ok: true, detail: 'the system clock is synchronized (NTP)' });
        if (!err && answer === 'no')
          return resolve({
            name,
            ok: false,
            detail: 'the system clock is not synchronized',
            advice: TIME_SYNC_ADVICE,
          });
        const why =
          (err as NodeJS.ErrnoException | null)?.code === 'ENOENT'
            ? `${command} is not installed`
            : (stderr.trim().split('\n')[0] ?? '') || answer || (err?.message ?? 'no answer');
        resolve({
          name,
          ok: true,
          warning: true,
          detail: `could not tell whether the clock is synchronized: ${why}`,
          advice: "check the clock's sync where this machine's time is kept (chrony, ntpd or the container's host)",
        });
      },
    );
  });
}
