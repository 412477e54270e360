import { ENGINE_RETRIES, engineRetryDelayMs } from '../../shared/lifecycle';
import type { Host, Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { PermanentEngineError } from '../fleet/engine';
import { logOperatorAction, systemActor } from '../operator/log';
import { listHosts, nodesNeedingWork, updatePlacement } from './fleet-queries';
import type { FleetDeps } from './fleet-deps';
import { keepExitFileBeforeDestroy } from './exit-file-keep';
import { updateGauges } from './gauges';
import { placeNode } from './place';
import { provision } from './provision';
import { transition } from './repository';
import { insertNodeEvent } from './uptime-events-queries';

/** The control loop's own lines in the operator log. */
const FLEET = systemActor('fleet');

/**
 * One pass of the control loop (the recurring job `fleet.reconcile`): make the engines
 * match the nodes' lifecycle states. Place and start what was requested, destroy what is
 * being deleted, restart on request.
 */
export async function reconcilePass(d: FleetDeps): Promise<void> {
  const hosts = new Map((await listHosts(d.db)).map((h) => [h.id, h]));
  const todo = (await nodesNeedingWork(d.db, Date.now())).filter((n) => !d.inProgress.has(n.mn_id));
  // Placement reserves slots and addresses: one node at a time, in creation order.
  for (const n of todo.filter((n) => n.state === 'requested')) await placeNode(d, n);
  const rest = todo.filter((n) => n.state !== 'requested');
  await Promise.all(
    rest.map(async (n) => {
      d.inProgress.add(n.mn_id);
      try {
        await reconcileNode(d, n, n.host_id === null ? undefined : hosts.get(n.host_id));
      } finally {
        d.inProgress.delete(n.mn_id);
      }
    }),
  );
  // Placed nodes are provisioned on the next pass, at once.
  if (todo.some((n) => n.state === 'requested')) void d.reconcile();
  await updateGauges(d);
}

async function reconcileNode(d: FleetDeps, node: Masternode, host: Host | undefined) {
  if (!host) {
    if (node.state === 'deleting') {
      await d.db.transaction().execute(async (trx) => {
        await updatePlacement(trx, node.id, { destroyed_at: Date.now() });
        await transition(trx, node.id, 'destroyed');
      });
    } else if (node.state === 'provisioning') {
      await giveUp(d, node, 'Its host was removed from the fleet.');
    } else {
      const error = 'Its host was removed from the fleet.';
      await d.db.transaction().execute(async (trx) => {
        await updatePlacement(trx, node.id, { last_error: error, restarted_at: Date.now() });
        await insertNodeEvent(trx, node.id, 'restart_failed', Date.now(), { error });
      });
    }
    return;
  }
  const engine = d.engines.for(host);
  try {
    if (node.state === 'deleting') {
      await keepExitFileBeforeDestroy(d, node);
      await engine.destroy(node.mn_id);
      await d.db.transaction().execute(async (trx) => {
        await updatePlacement(trx, node.id, { destroyed_at: Date.now() });
        await transition(trx, node.id, 'destroyed');
      });
      d.monitor.untrack(node.mn_id);
      d.log.info('node destroyed', { node: node.mn_id, host: host.name });
    } else if (node.state === 'provisioning') {
      await provision(d, node, host);
    } else {
      await engine.stop(node.mn_id);
      await engine.start(node.mn_id);
      await d.db.transaction().execute(async (trx) => {
        const at = Date.now();
        await updatePlacement(trx, node.id, { restarted_at: at });
        await insertNodeEvent(trx, node.id, 'restarted', at);
        await insertEvent(trx, node.user_id, 'refresh_masternode', { mn_id: node.mn_id });
      });
      void d.hub.poke();
      // Checked eagerly until its daemon answers: whoever asked for the restart waits for that.
      d.monitor.track(node.mn_id, false, true);
      d.log.info('node restarted', { node: node.mn_id, host: host.name });
    }
  } catch (err) {
    const message = (err as Error).message;
    const op = node.state === 'deleting' ? 'destroy' : node.state === 'provisioning' ? 'create' : 'restart';
    d.metrics.engineErrors.inc({ host: host.name, op });
    d.log.error('fleet engine operation failed', {
      node: node.mn_id,
      host: host.name,
      op,
      attempt: node.attempts + 1,
      error: message,
    });
    if (op === 'create') return retryOrFail(d, node, host, message, err instanceof PermanentEngineError);
    const attempts = node.attempts + 1;
    await d.db.transaction().execute(async (trx) => {
      if (op === 'destroy' && attempts < ENGINE_RETRIES) {
        // Still deleting: a daemon that may still run (a validator still signing) is not
        // written off on the first failure; tried again after a backoff.
        await updatePlacement(trx, node.id, {
          attempts,
          last_error: message,
          next_attempt_at: Date.now() + engineRetryDelayMs(attempts),
        });
      } else if (op === 'destroy') {
        // The operator is told (engine error below); the node is gone for its owner.
        await updatePlacement(trx, node.id, { last_error: message, destroyed_at: Date.now() });
        await transition(trx, node.id, 'destroyed');
      } else {
        await updatePlacement(trx, node.id, { last_error: message, restarted_at: Date.now() });
        // The reason is the answer the CLI or console that asked waits for (restart-outcome.ts).
        await insertNodeEvent(trx, node.id, 'restart_failed', Date.now(), { error: message });
      }
      await logOperatorAction(trx, FLEET, 'engine error', { node: node.mn_id, host: host.name, op, error: message });
      await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
    });
    void d.hub.poke();
  }
}

/** An engine failure on create: try again after a backoff, or fail the node with the reason. */
async function retryOrFail(d: FleetDeps, node: Masternode, host: Host, message: string, permanent: boolean) {
  const attempts = node.attempts + 1;
  if (attempts >= ENGINE_RETRIES || permanent) {
    await d.engines
      .for(host)
      .destroy(node.mn_id)
      .catch(() => {});
    return giveUp(d, node, `The node could not be started on its server (${message}).`, attempts);
  }
  await d.db.transaction().execute(async (trx) => {
    await updatePlacement(trx, node.id, {
      attempts,
      last_error: message,
      next_attempt_at: Date.now() + engineRetryDelayMs(attempts),
    });
    await transition(trx, node.id, 'engine_retry');
    await logOperatorAction(trx, FLEET, 'engine error', {
      node: node.mn_id,
      host: host.name,
      op: 'create',
      attempt: attempts,
      error: message,
    });
  });
}

async function giveUp(d: FleetDeps, node: Masternode, reason: string, attempts = node.attempts) {
  await d.db.transaction().execute(async (trx) => {
    await updatePlacement(trx, node.id, { attempts, last_error: reason, destroyed_at: Date.now() });
    await transition(trx, node.id, 'engine_gave_up', { failed_reason: reason });
    await logOperatorAction(trx, FLEET, 'node failed', { node: node.mn_id, reason });
    await insertEvent(trx, node.user_id, 'refresh_queue', {});
    await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
  });
  void d.hub.poke();
  d.log.warn('node failed', { node: node.mn_id, reason });
}
