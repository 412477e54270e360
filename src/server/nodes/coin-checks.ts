import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import type { EngineRegistry } from '../fleet/engines/registry';
import type { CoinReadiness } from '../coins/ports';
import type { EventHub } from '../events/hub';
import { findCoin, coinDetails } from '../coins/catalog';
import { enqueueJob } from '../jobs/queue';
import type { JobRunner } from '../jobs/runner';
import { fail } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import type { DaemonProfile } from '../fleet/profiles';
import type { CheckOutcome } from './coin-check';
import {
  coinCheckUnderWay,
  findCoinCheck,
  insertCoinCheck,
  latestCoinChecks,
  updateCoinCheck,
} from './coin-check-queries';
import { findHost, hostUsage, listHosts, placedAddresses } from './fleet-queries';
import { profileFor } from './lifecycle';
import { pairsInUse, pickHost } from './placement';

/** Asks for a check of the coin (on `hostName`, or where placement would put a node); the server runs it as a job. */
export async function requestCoinCheck(
  db: DB,
  profiles: Record<string, DaemonProfile>,
  coinId: string,
  hostName: string | null,
): Promise<number> {
  const coin = await findCoin(db, coinId);
  if (!coin) fail('NOT_FOUND', `Unknown coin "${coinId}".`);
  const { id: profileId } = profileFor(profiles, coin.family, coinDetails(coin).daemon);
  const host = hostName === null ? null : await findHost(db, hostName);
  if (hostName !== null && !host) fail('NOT_FOUND', `No host "${hostName}".`);
  return db.transaction().execute(async (trx) => {
    if (await coinCheckUnderWay(trx, coin.id)) fail('CONFLICT', `A check of ${coin.label} is already under way.`);
    const { id } = await insertCoinCheck(trx, { coin_id: coin.id, profile_id: profileId, host_id: host?.id ?? null });
    await enqueueJob(trx, 'nodes.coin_check', { check_id: id }, { key: `coin-check:${coin.id}` });
    return id;
  });
}

type CheckDeps = {
  db: DB;
  log: Logger;
  hub: Pick<EventHub, 'poke'>;
  fleet: { checkCoin(coinId: string, hostName: string | null): Promise<CheckOutcome> };
};

export function handleCoinCheck(jobs: JobRunner, deps: CheckDeps): void {
  jobs.handle('nodes.coin_check', {
    // A throwaway daemon has two minutes to answer; building nothing, pulling nothing.
    deadlineMs: 5 * 60_000,
    maxAttempts: 1,
    backoffMs: 0,
    run: async ({ check_id }) => {
      const row = await findCoinCheck(deps.db, check_id);
      if (!row || row.state !== 'queued') return;
      await updateCoinCheck(deps.db, row.id, { state: 'running' });
      const host = row.host_id === null ? null : (await listHosts(deps.db)).find((h) => h.id === row.host_id);
      const outcome = await deps.fleet.checkCoin(row.coin_id, host?.name ?? null);
      await updateCoinCheck(deps.db, row.id, {
        state: outcome.passed ? 'passed' : 'failed',
        reason: outcome.reason,
        steps: JSON.stringify(outcome.steps),
        host_id: outcome.host?.id ?? row.host_id,
        program: outcome.program,
        program_id: outcome.programId,
        checked_at: Date.now(),
      });
      deps.log.info('coin check finished', { coin: row.coin_id, passed: outcome.passed, reason: outcome.reason });
      void deps.hub.poke();
    },
    onGiveUp: async ({ check_id }, error) => {
      await updateCoinCheck(deps.db, check_id, {
        state: 'failed',
        reason: `the check did not finish: ${error}`,
        checked_at: Date.now(),
      });
    },
  });
}

/**
 * Per coin with any finished check: ready when the newest check on some host passed, for
 * the daemon the coin names now (its profile and program), and that host can take a node
 * now (active, disk, a free slot and P2P address). Otherwise the newest reason.
 */
export async function coinReadiness(
  db: DB,
  profiles: Record<string, DaemonProfile>,
): Promise<Map<string, CoinReadiness>> {
  const [checks, hosts, usage, addresses] = await Promise.all([
    latestCoinChecks(db),
    listHosts(db),
    hostUsage(db),
    placedAddresses(db),
  ]);
  const inUse = pairsInUse(addresses);
  const out = new Map<string, CoinReadiness>();
  for (const c of checks) {
    const profile = profiles[c.profile_id];
    const host = hosts.find((h) => h.id === c.host_id);
    let verdict: CoinReadiness;
    if (c.state !== 'passed')
      verdict = { ready: false, reason: c.reason ?? 'the check failed', checkedAt: c.checked_at };
    else if (!profile || profile.run !== 'binary' || !host)
      verdict = { ready: false, reason: 'the checked host or profile is gone: check again', checkedAt: c.checked_at };
    else if ((host.engine === 'docker' ? profile.image : profile.program) !== c.program)
      verdict = {
        ready: false,
        reason: `the profile now runs ${host.engine === 'docker' ? profile.image : profile.program}: check again`,
        checkedAt: c.checked_at,
      };
    else if (
      !pickHost([host], usage, 'dedicated', profile, { inUse, profiles }) &&
      !pickHost([host], usage, 'cloud', profile, { inUse, profiles })
    )
      verdict = { ready: false, reason: `host ${host.name} cannot take a node now`, checkedAt: c.checked_at };
    else verdict = { ready: true, reason: `passed on ${host.name}`, checkedAt: c.checked_at };
    const seen = out.get(c.coin_id);
    // Rows come newest first: a ready host wins, else the newest reason stays.
    if (!seen || (!seen.ready && verdict.ready)) out.set(c.coin_id, verdict);
  }
  return out;
}

/**
 * A coin's check holds for the image (or program) it ran: when what is on a checked host
 * changed (a rebuilt image, a replaced binary) or is gone, the coin is checked again there.
 * Run with the host check; returns the coins queued.
 */
export async function recheckChangedPrograms(
  db: DB,
  engines: Pick<EngineRegistry<Host>, 'for'>,
  profiles: Record<string, DaemonProfile>,
  log: Logger,
): Promise<string[]> {
  const [checks, hosts] = await Promise.all([latestCoinChecks(db), listHosts(db)]);
  const queued: string[] = [];
  for (const c of checks) {
    const host = hosts.find((h) => h.id === c.host_id);
    if (c.state !== 'passed' || !c.program || !host || host.state !== 'active') continue;
    let now: { id: string } | null | undefined;
    try {
      now = await engines.for(host).program?.(c.program);
    } catch (err) {
      log.warn('coin recheck: the host did not say what it has', { host: host.name, error: String(err) });
      continue;
    }
    if (now === undefined || now?.id === c.program_id) continue;
    try {
      await requestCoinCheck(db, profiles, c.coin_id, host.name);
      queued.push(c.coin_id);
      log.info('coin checked again: its image changed on the host', {
        coin: c.coin_id,
        host: host.name,
        program: c.program,
      });
    } catch {
      // One is under way already, or the coin is gone: nothing to add.
    }
  }
  return queued;
}
