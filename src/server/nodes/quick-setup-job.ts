import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { FleetActionError } from '../fleet/access';
import { errorText } from '../jobs/attempt';
import { enqueueJob } from '../jobs/queue';
import type { JobRunner } from '../jobs/runner';
import { findCoin } from '../coins/catalog';
import { afterRaise, raise } from '../notifications/raise';
import type { AppDeps } from '../rpc/context';
import type { SecretBox } from '../secrets/box';
import { KEY_MESSAGES } from './operator-key-restart';
import { completeStart, findNodeById, releaseStart, startClaimOf } from './repository';

/*
 * Quick setup's key change runs as a queued job, not inside the owner's request: a real
 * daemon is restarted with the key in its config and waited for (up to a minute). The
 * request claims the node's one start and queues this job in one transaction; the node
 * page shows the start under way (`setup.starting`) and follows it live; the job completes
 * the start (a `started` event) or gives the claim back and tells the owner why.
 */

type Deps = Pick<AppDeps, 'db' | 'log' | 'hub' | 'mail' | 'fleet' | 'secrets'>;

/** The sealed key is bound to its node: a payload moved to another node does not open. */
const aad = (nodeId: number) => `quick-setup:${nodeId}`;

/** Queues the key change of `node`, in the caller's transaction; false when one is already queued or running. */
export function queueQuickSetup(trx: DB, box: SecretBox, node: Masternode, claimAt: number, key: string) {
  return enqueueJob(
    trx,
    'nodes.quick_setup',
    { node_id: node.id, claim_at: claimAt, key: box.seal(key, aad(node.id)) },
    { key: `quick-setup:${node.id}` },
  );
}

export function handleQuickSetup(jobs: JobRunner, deps: Deps): void {
  jobs.handle('nodes.quick_setup', {
    // setOperatorKey waits up to a minute for the daemon to come back.
    deadlineMs: 3 * 60_000,
    // Only "busy" (the control loop is working on the node) is tried again.
    maxAttempts: 4,
    backoffMs: 5_000,
    run: async (p) => {
      const node = await findNodeById(deps.db, p.node_id);
      // Deleted, or no longer this start's claim (it expired and another start took it).
      if (!node || (await startClaimOf(deps.db, node.id)) !== p.claim_at) return;
      const key = deps.secrets.open(p.key, aad(node.id));
      try {
        await deps.fleet.setOperatorKey(node, key);
      } catch (err) {
        if (err instanceof FleetActionError && err.kind === 'busy') throw err;
        const reason = err instanceof FleetActionError ? err.message : KEY_MESSAGES.failed;
        if (!(err instanceof FleetActionError))
          deps.log.error('quick setup key change failed', { node: node.mn_id, error: errorText(err) });
        await giveBack(deps, node, p.claim_at, reason);
        return;
      }
      // Deleted while its daemon restarted: no `started` for a node that is gone. The start
      // and its events commit together, so whoever sees it started sees its one event.
      const started = await deps.db.transaction().execute(async (trx) => {
        if (!(await completeStart(trx, node.id, p.claim_at))) return false;
        await refreshEvents(trx, node, true);
        return true;
      });
      if (started) void deps.hub.poke();
    },
    onGiveUp: async (p, error) => {
      const node = await findNodeById(deps.db, p.node_id);
      const busy = error === KEY_MESSAGES.busy;
      if (node && (await startClaimOf(deps.db, node.id)) === p.claim_at)
        await giveBack(deps, node, p.claim_at, busy ? KEY_MESSAGES.busy : KEY_MESSAGES.failed);
    },
  });
}

/** The key was not taken: the claim goes back (the owner may send it again) and the owner is told why. */
async function giveBack(deps: Deps, node: Masternode, claimAt: number, reason: string) {
  const coin = await findCoin(deps.db, node.coin_id);
  await deps.db.transaction().execute(async (trx) => {
    await releaseStart(trx, node.id, claimAt);
    await raise(trx, node.user_id, 'quick_setup_failed', {
      mn_id: node.mn_id,
      coin: coin?.label ?? node.coin_id,
      alias: node.alias,
      reason,
    });
    await refreshEvents(trx, node, false);
  });
  afterRaise(deps);
}

/** The node page and the list refetch; `started` once per node (the start is done). */
export async function refreshEvents(trx: DB, n: Masternode, started: boolean) {
  await insertEvent(trx, n.user_id, 'refresh_masternode', { mn_id: n.mn_id });
  await insertEvent(trx, n.user_id, 'refresh_masternodes', {});
  if (started) await insertEvent(trx, n.user_id, 'started', { mn_id: n.mn_id });
}
