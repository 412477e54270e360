import type { RolloutSummary, UpgradesPage } from '../../shared/schemas/console-upgrades';
import { operatorIds } from '../auth/users';
import { coinDaemonVersion, coinDaemonVersions, setCoinDaemonVersion } from '../coins/daemon-versions';
import { coinDetails, findCoin, listCoins } from '../coins/catalog';
import type { AppDeps } from '../rpc/context';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import type { JobRunner } from '../jobs/runner';
import { afterRaise, raise } from '../notifications/raise';
import { logOperatorAction, systemActor, type OperatorActor } from '../operator/log';
import { findNodeById } from './repository';
import type { FleetAccess } from '../fleet/access';
import { canChangeVersion, DAEMON_VERSION, profileVersion } from '../fleet/daemon-version';
import { listHosts, listLiveNodes } from './fleet-queries';
import * as q from './rollout-queries';
import { profileFor } from './lifecycle';
import { nodeVersions } from './version-queries';

export const ROLLOUT_MESSAGES = {
  badVersion: 'A version is 1-40 letters, digits and . + - _ (such as 22.1.3).',
  sameVersion: 'The coin already runs that version.',
  busy: 'An upgrade of this coin is already under way: pause, abort or let it finish first.',
  noRollout: 'No such upgrade.',
  finished: 'This upgrade is over.',
} as const;

/**
 * A rollout's plan: the first node alone (the canary), then the rest in batches of
 * `batchSize`, oldest nodes first. Pure, for the tests.
 */
export function planBatches<T>(nodes: T[], batchSize: number): T[][] {
  if (!nodes.length) return [];
  const out: T[][] = [[nodes[0]]];
  for (let i = 1; i < nodes.length; i += batchSize) out.push(nodes.slice(i, i + batchSize));
  return out;
}

export type StartRollout = { coinId: string; version: string; batchSize: number };

/**
 * Starts moving a coin's nodes to a new daemon version: new nodes get it at once; the
 * coin's live nodes are upgraded by the `fleet.rollouts` job, the canary first, each
 * batch checked healthy before the next. Nodes whose daemon cannot change version where
 * they run (daemon-version.ts) are listed as skipped, with why. The CLI's `fleet upgrade`
 * and the console call this.
 */
export async function startRollout(
  db: DB,
  fleet: Pick<FleetAccess, 'profiles'>,
  by: OperatorActor,
  input: StartRollout,
  now = Date.now(),
): Promise<{ id: number; nodes: number; skipped: number }> {
  const coin = await findCoin(db, input.coinId);
  if (!coin) fail('NOT_FOUND', `No coin ${input.coinId}.`);
  if (!DAEMON_VERSION.test(input.version)) fail('BAD_REQUEST', ROLLOUT_MESSAGES.badVersion, 'version');
  if (!Number.isInteger(input.batchSize) || input.batchSize < 1 || input.batchSize > 1000)
    fail('BAD_REQUEST', 'The batch size is a whole number from 1 to 1000.', 'batch_size');
  const { profile } = profileFor(fleet.profiles, coin.family, coinDetails(coin).daemon);
  const hosts = new Map((await listHosts(db)).map((h) => [h.id, h]));
  return db.transaction().execute(async (trx) => {
    const from = (await coinDaemonVersion(trx, coin.id)) ?? profileVersion(profile);
    if (await q.openRolloutOf(trx, coin.id)) fail('CONFLICT', ROLLOUT_MESSAGES.busy);
    // Nodes already on the version are left alone (after an abort, some are).
    const versions = await nodeVersions(trx, coin.id);
    const live = (await listLiveNodes(trx))
      .filter(
        (n) =>
          n.coin_id === coin.id &&
          (versions.get(n.id) ?? profileVersion(fleet.profiles[n.daemon_profile ?? ''] ?? profile)) !== input.version,
      )
      .sort((a, b) => a.id - b.id);
    if (from === input.version && !live.length) fail('BAD_REQUEST', ROLLOUT_MESSAGES.sameVersion, 'version');
    const upgradable: Masternode[] = [];
    const skipped: Array<{ node_id: number; batch: number; state: 'skipped'; error: string }> = [];
    for (const n of live) {
      const host = n.host_id === null ? undefined : hosts.get(n.host_id);
      const p = fleet.profiles[n.daemon_profile ?? ''];
      if (host && p && canChangeVersion(p, host)) upgradable.push(n);
      else
        skipped.push({
          node_id: n.id,
          batch: -1,
          state: 'skipped',
          error: `its daemon (${n.daemon_profile ?? 'none'}${host ? ` on ${host.name}` : ''}) cannot change version there`,
        });
    }
    const batches = planBatches(upgradable, input.batchSize);
    const done = batches.length === 0;
    const id = await q.insertRollout(trx, {
      coin_id: coin.id,
      from_version: from,
      to_version: input.version,
      batch_size: input.batchSize,
      batches: batches.length,
      state: done ? 'done' : 'running',
      reason: null,
      started_at: now,
      updated_at: now,
      finished_at: done ? now : null,
    });
    await q.insertRolloutNodes(
      trx,
      id,
      [
        ...batches.flatMap((b, i) =>
          b.map((n) => ({ node_id: n.id, batch: i, state: 'pending' as const, error: null })),
        ),
        ...skipped,
      ],
      now,
    );
    // New nodes get the new version from now on; a halted rollout gives them the old one again.
    await setCoinDaemonVersion(trx, coin.id, input.version, now);
    await logOperatorAction(trx, by, 'fleet upgrade', {
      coin: coin.id,
      version: input.version,
      from,
      batch_size: input.batchSize,
      nodes: upgradable.length,
      skipped: skipped.length,
      rollout: id,
    });
    return { id, nodes: upgradable.length, skipped: skipped.length };
  });
}

/** Pause (after the batch under way), resume, or abort (no further batch; upgraded nodes keep the new version). */
export async function changeRollout(
  db: DB,
  by: OperatorActor,
  id: number,
  action: 'pause' | 'resume' | 'abort',
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await q.findRollout(trx, id);
    if (!r) fail('NOT_FOUND', ROLLOUT_MESSAGES.noRollout);
    if (r.state !== 'running' && r.state !== 'paused') fail('BAD_REQUEST', ROLLOUT_MESSAGES.finished);
    if (action === 'abort') {
      await q.updateRollout(trx, id, {
        state: 'aborted',
        reason: `Aborted by ${actorName(by)}.`,
        updated_at: now,
        finished_at: now,
      });
      // The upgrade did not complete: new nodes get the version the rest still run.
      await setCoinDaemonVersion(trx, r.coin_id, r.from_version, now);
    } else {
      await q.updateRollout(trx, id, { state: action === 'pause' ? 'paused' : 'running', updated_at: now });
    }
    await logOperatorAction(trx, by, `fleet upgrade ${action}`, {
      rollout: id,
      coin: r.coin_id,
      version: r.to_version,
    });
  });
}

const actorName = (by: OperatorActor) =>
  by.kind === 'operator' ? by.username : by.kind === 'cli' ? `${by.osUser} (command line)` : by.name;

export type RolloutDeps = { db: DB; log: Logger; fleet: Pick<FleetAccess, 'runNodeOnVersion'> };

/**
 * The job `fleet.rollouts`: for each running rollout, its current batch. Every node of
 * the batch is upgraded at once; all healthy, the rollout moves to the next batch (or
 * is done, its owners told); one failed, the batch's other nodes go back to the old
 * version, the rollout halts with the reason, new nodes get the old version again, and
 * the operators are told. Nodes left "upgrading" by a crash are upgraded again (the
 * step is idempotent). Returns true when something was done (callers then deliver).
 */
export async function advanceRollouts(deps: RolloutDeps, now = () => Date.now()): Promise<boolean> {
  let worked = false;
  for (const r of await q.runningRollouts(deps.db)) {
    worked = true;
    await advanceOne(deps, r.id, now);
  }
  return worked;
}

async function advanceOne(deps: RolloutDeps, id: number, now: () => number): Promise<void> {
  const { db, log } = deps;
  const r = (await q.findRollout(db, id))!;
  const batch = await q.batchNodes(db, id, r.current_batch);
  const todo = batch.filter((n) => n.state === 'pending' || n.state === 'upgrading');
  if (!todo.length) {
    const next = r.current_batch + 1;
    const finished = next >= r.batches;
    await q.updateRollout(
      db,
      id,
      finished
        ? { current_batch: next, state: 'done', updated_at: now(), finished_at: now() }
        : { current_batch: next, updated_at: now() },
    );
    if (finished) log.info('daemon upgrade done', { rollout: id, coin: r.coin_id, version: r.to_version });
    return;
  }
  for (const n of todo) await q.setRolloutNode(db, id, n.node_id, 'upgrading', null, now());
  const results = await Promise.all(
    todo.map(async (row) => {
      const node = await findNodeById(db, row.node_id);
      // Deleted since the plan: nothing to upgrade.
      if (!node || node.state !== 'live') return { row, node, ok: true as const, gone: true };
      try {
        await deps.fleet.runNodeOnVersion(node, r.to_version, r.from_version);
        return { row, node, ok: true as const, gone: false };
      } catch (err) {
        return { row, node, ok: false as const, error: (err as Error).message };
      }
    }),
  );
  const failed = results.filter((x) => !x.ok);
  const coin = await findCoin(db, r.coin_id);
  if (!failed.length) {
    await db.transaction().execute(async (trx) => {
      for (const x of results) {
        await q.setRolloutNode(
          trx,
          id,
          x.row.node_id,
          x.gone ? 'skipped' : 'healthy',
          x.gone ? 'deleted before its turn' : null,
          now(),
        );
        if (!x.gone && x.node)
          await raise(trx, x.node.user_id, 'daemon_upgraded', {
            mn_id: x.node.mn_id,
            coin: coin?.label ?? r.coin_id,
            alias: x.node.alias,
            version: r.to_version,
          });
      }
    });
    log.info('daemon upgrade batch healthy', {
      rollout: id,
      coin: r.coin_id,
      batch: r.current_batch,
      nodes: results.length,
    });
    return;
  }
  // A failed batch: its healthy nodes go back too, so the batch is one version again.
  const back: string[] = [];
  for (const x of results) {
    if (!x.ok || ('gone' in x && x.gone) || !x.node) continue;
    try {
      await deps.fleet.runNodeOnVersion(x.node, r.from_version, r.to_version);
      back.push(x.node.mn_id);
    } catch (err) {
      log.error('node could not be rolled back', { rollout: id, node: x.node.mn_id, error: (err as Error).message });
    }
  }
  const first = failed[0] as { node?: Masternode; error: string; row: { node_id: number } };
  const reason = `Batch ${r.current_batch === 0 ? 'the canary' : r.current_batch} failed on node ${first.node?.mn_id ?? first.row.node_id}: ${first.error}.`;
  await db.transaction().execute(async (trx) => {
    for (const x of results) {
      if (!x.ok) await q.setRolloutNode(trx, id, x.row.node_id, 'failed', (x as { error: string }).error, now());
      else if (x.node && back.includes(x.node.mn_id))
        await q.setRolloutNode(trx, id, x.row.node_id, 'rolled_back', null, now());
    }
    await q.updateRollout(trx, id, { state: 'halted', reason, updated_at: now(), finished_at: now() });
    await setCoinDaemonVersion(trx, r.coin_id, r.from_version, now());
    await logOperatorAction(trx, systemActor('daemon upgrade'), 'fleet upgrade halted', {
      rollout: id,
      coin: r.coin_id,
      version: r.to_version,
      reason,
    });
    for (const op of await operatorIds(trx))
      await raise(trx, op, 'rollout_halted', { coin: coin?.label ?? r.coin_id, version: r.to_version, reason });
  });
  log.warn('daemon upgrade halted', { rollout: id, coin: r.coin_id, version: r.to_version, reason });
}

/** The recurring job `fleet.rollouts` (ROLLOUT_TICK_SECONDS); a batch may take ROLLOUT_HEALTH_SECONDS twice over (the upgrade, then a rollback). */
export function scheduleRollouts(
  jobs: JobRunner,
  deps: Pick<AppDeps, 'db' | 'log' | 'fleet' | 'hub' | 'mail'>,
  everyMs: number,
): void {
  jobs.every('fleet.rollouts', {
    everyMs,
    atStart: true,
    deadlineMs: 6 * 3_600_000,
    run: async () => {
      if (await advanceRollouts(deps)) afterRaise(deps);
    },
  });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The console's Upgrades page: each coin's version now, and the newest rollouts with their progress. */
export async function upgradesOverview(db: DB, fleet: Pick<FleetAccess, 'profiles'>): Promise<UpgradesPage> {
  // By label, as SQLite's binary collation orders them.
  const coins = (await listCoins(db)).sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const versions = await coinDaemonVersions(db);
  const live = new Map<string, number>();
  for (const n of await listLiveNodes(db)) live.set(n.coin_id, (live.get(n.coin_id) ?? 0) + 1);
  const rows = await q.recentRollouts(db, 20);
  return {
    coins: coins.map((c) => ({
      id: c.id,
      label: c.label,
      version:
        versions.get(c.id) ?? profileVersion(profileFor(fleet.profiles, c.family, coinDetails(c).daemon).profile),
      live_nodes: live.get(c.id) ?? 0,
    })),
    rollouts: await summaries(db, rows),
  };
}

async function summaries(db: DB, rows: Awaited<ReturnType<typeof q.recentRollouts>>): Promise<RolloutSummary[]> {
  const counts = await q.rolloutCounts(
    db,
    rows.map((r) => r.id),
  );
  const labels = new Map((await listCoins(db)).map((c) => [c.id, c.label]));
  return rows.map((r) => ({
    id: r.id,
    coin_id: r.coin_id,
    coin: labels.get(r.coin_id) ?? r.coin_id,
    from_version: r.from_version,
    to_version: r.to_version,
    batch_size: r.batch_size,
    batches: r.batches,
    current_batch: r.current_batch,
    state: r.state,
    reason: r.reason,
    started_at: iso(r.started_at)!,
    finished_at: iso(r.finished_at),
    counts: { pending: 0, upgrading: 0, healthy: 0, failed: 0, rolled_back: 0, skipped: 0, ...counts.get(r.id) },
  }));
}

export async function rolloutDetail(db: DB, id: number) {
  const r = await q.findRollout(db, id);
  if (!r) fail('NOT_FOUND', ROLLOUT_MESSAGES.noRollout);
  const [summary] = await summaries(db, [r]);
  return {
    ...summary,
    nodes: (await q.rolloutNodeList(db, id)).map((n) => ({
      mn_id: n.mn_id,
      batch: n.batch,
      state: n.state,
      error: n.error,
    })),
  };
}
