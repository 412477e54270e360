import type { Config } from '../kernel/config';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import { findJob, listFailedJobs, liveJobOfKey, requeueFailedJob } from '../jobs/queue';
import type { Logger } from '../kernel/log';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import type { SecretBox } from '../secrets/box';
import { engineForHost } from './hosts';
import { findNode, listHosts } from './fleet-queries';
import { requestDestroy, requestRestart } from './lifecycle';
import { RESTART_WAIT_MS } from '../../shared/node-maintenance';
import { waitForRestart, type RestartOutcome } from './restart-outcome';

/**
 * The operator's node and queue actions: one service for the CLI (`fleet logs|restart|
 * destroy`, `jobs failed|retry`) and the console's Fleet page.
 */
export const MAX_LOG_LINES = 2000;
const MAX_REASON = 500;

export async function requireLiveNode(db: DB, mnId: string): Promise<Masternode> {
  const node = await findNode(db, mnId);
  if (!node) fail('NOT_FOUND', `No node ${mnId} (it may have been destroyed).`);
  return node;
}

/** The last `tail` lines of a node's daemon output, read from its engine (no transaction). */
export async function nodeLogs(
  deps: { db: DB; box: Pick<SecretBox, 'open'>; config: Pick<Config, 'dataDir'>; log: Logger },
  mnId: string,
  tail: number,
): Promise<string> {
  if (!Number.isInteger(tail) || tail < 1 || tail > MAX_LOG_LINES)
    fail('BAD_REQUEST', `tail must be a whole number of lines from 1 to ${MAX_LOG_LINES}`, 'tail');
  const node = await requireLiveNode(deps.db, mnId);
  const host = (await listHosts(deps.db)).find((h) => h.id === node.host_id);
  if (!host) fail('BAD_REQUEST', `Node ${node.mn_id} has no host yet.`);
  const { engine, close } = engineForHost(deps.config, deps.box, host, deps.log);
  try {
    return await engine.logs(node.mn_id, tail);
  } catch (err) {
    fail('SERVICE_UNAVAILABLE', `Cannot read the logs of ${node.mn_id}: ${(err as Error).message}`);
  } finally {
    await close();
  }
}

/**
 * Restarts a node for the operator and waits (bounded) for the control loop's answer:
 * restarted and answering, or failed with the engine's reason.
 */
export async function restartNode(
  db: DB,
  by: OperatorActor,
  mnId: string,
  waitMs = RESTART_WAIT_MS,
): Promise<RestartOutcome> {
  const node = await requireLiveNode(db, mnId);
  // The control loop restarts running nodes only: any other would wait for an answer that never comes.
  if (node.state !== 'live')
    fail(
      'CONFLICT',
      `Node ${node.mn_id} is not running on a server (it is ${node.state}): there is nothing to restart.`,
    );
  const askedAt = await requestRestart(db, node, by);
  return waitForRestart(db, node, askedAt, waitMs);
}

/** Destroys a node for the operator; the reason goes to the node and the log. */
export async function destroyNode(db: DB, by: OperatorActor, mnId: string, reason: string | null): Promise<Masternode> {
  const why = reason?.trim() || null;
  if (why !== null && why.length > MAX_REASON)
    fail('BAD_REQUEST', `The reason is at most ${MAX_REASON} characters.`, 'reason');
  const node = await requireLiveNode(db, mnId);
  if (!(await requestDestroy(db, node, by, why))) fail('CONFLICT', `Node ${node.mn_id} is already being destroyed.`);
  return node;
}

/** Background jobs that gave up, with their reason. */
export function failedQueue(db: DB, limit = 100) {
  return listFailedJobs(db, limit);
}

/** Queues a failed job again (due now, attempts from zero) and logs it. */
export async function retryFailedJob(db: DB, by: OperatorActor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const job = await findJob(trx, id);
    if (!job || job.state !== 'failed') fail('NOT_FOUND', `No failed job #${id}.`);
    if (await liveJobOfKey(trx, job.key)) fail('CONFLICT', `Job #${id} (${job.name}) has a newer run queued already.`);
    await requeueFailedJob(trx, id);
    await logOperatorAction(trx, by, 'jobs retry', { job: id, name: job.name, last_error: job.last_error });
  });
}
