import { bundledCatalogPath } from '../coins/import';
import type { CliCommand } from '../db/cli-command';
import type { DB } from '../db/open';
import { loadProfiles } from '../fleet/profiles';
import { asUsage, parseFlags, UsageError } from '../kernel/cli';
import { fail } from '../kernel/errors';
import { logOperatorAction } from '../operator/log';
import type { CheckStep } from './coin-check';
import { findCoinCheck } from './coin-check-queries';
import { requestCoinCheck } from './coin-checks';

// The running server picks queued jobs up within a second or two; past this, it is not running.
const NOT_PICKED_UP_MS = 60_000;
// The job's own deadline is 5 minutes.
const GIVE_UP_MS = 6 * 60_000;

/** Waits for the check's row to finish (the server runs it); null when the server never took it. */
async function waitForCheck(db: DB, id: number, progress: (line: string) => void) {
  const t0 = Date.now();
  let said = '';
  for (;;) {
    const row = await findCoinCheck(db, id);
    if (!row) return null;
    if (row.state === 'passed' || row.state === 'failed') return row;
    if (row.state !== said) progress((said = row.state) === 'running' ? 'running…' : 'queued…');
    if (row.state === 'queued' && Date.now() - t0 > NOT_PICKED_UP_MS) return null;
    if (Date.now() - t0 > GIVE_UP_MS) return row;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const coinCheckCommands: Record<string, CliCommand> = {
  'coins check': {
    usage: 'coins check <coin> [--host <name>]',
    summary:
      "try a coin's daemon on a host before it is offered: verified profile, image, pinned version, every platform call, free P2P port (the running server runs it)",
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['host']);
      if (positional.length !== 1) throw new UsageError('coins check takes one coin id');
      const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
      const coinId = positional[0].toLowerCase();
      const id = await asUsage(() => requestCoinCheck(db, profiles, coinId, flags.host ?? null));
      await logOperatorAction(db, io.by, 'coins check', { coin: coinId, host: flags.host ?? null, check: id });
      io.out(`check #${id} of ${coinId} queued`);
      const row = await waitForCheck(db, id, (line) => io.out(line));
      if (!row)
        fail(
          'SERVICE_UNAVAILABLE',
          'the running server has not started the check: is it running? (the check stays queued)',
        );
      for (const s of JSON.parse(row.steps) as CheckStep[]) io.out(`${s.ok ? 'ok  ' : 'FAIL'} ${s.step}: ${s.detail}`);
      if (row.state !== 'passed')
        fail('BAD_REQUEST', `${coinId} is not ready: ${row.reason ?? 'the check has not finished'}`);
      io.out(`${coinId}: ready`);
    },
  },
};
