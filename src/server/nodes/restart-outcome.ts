import { RESTART_WAIT_MS } from '../../shared/node-maintenance';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { findNode } from './fleet-queries';
import { restartAnswerSince } from './uptime-events-queries';

const POLL_MS = 250;

export type RestartOutcome =
  /** Restarted, and the monitor found its daemon answering after it. */
  | { outcome: 'answering'; message: string }
  /** The engine could not restart it (the reason is the engine's). */
  | { outcome: 'failed'; message: string }
  /** Restarted, but its daemon did not answer within the wait. */
  | { outcome: 'silent'; message: string }
  /** The control loop did not answer within the wait (is the server running?). */
  | { outcome: 'no_answer'; message: string };

// Statuses a daemon has only when it answered (status-map.ts): the others mean it did not.
const ANSWERED = new Set(['syncing', 'start required', 'pending', 'running', 'removed']);

/**
 * Waits (bounded) for the outcome of a restart asked at `askedAt`, reading the rows the
 * control loop writes: the CLI runs in another process than the loop, so the database is
 * where the answer comes back. Polls the node's rows; never waits past `waitMs`.
 */
export async function waitForRestart(
  db: DB,
  node: Pick<Masternode, 'id' | 'mn_id'>,
  askedAt: number,
  waitMs = RESTART_WAIT_MS,
): Promise<RestartOutcome> {
  const until = Date.now() + waitMs;
  const seconds = Math.round(waitMs / 1000);
  let restartedAt: number | null = null;
  let last: Masternode | undefined;
  for (;;) {
    if (restartedAt === null) {
      const answer = await restartAnswerSince(db, node.id, askedAt);
      if (answer?.kind === 'restart_failed') {
        const error = answer.detail ? (JSON.parse(answer.detail) as { error?: string }).error : undefined;
        return { outcome: 'failed', message: `${node.mn_id} could not be restarted: ${error ?? 'its engine refused'}` };
      }
      if (answer) restartedAt = answer.at;
    }
    if (restartedAt !== null) {
      last = await findNode(db, node.mn_id);
      if (!last) return { outcome: 'failed', message: `${node.mn_id} was destroyed while it restarted` };
      if (last.last_checked_at !== null && last.last_checked_at >= restartedAt && ANSWERED.has(last.status))
        return { outcome: 'answering', message: `${node.mn_id} restarted; its daemon answers (${last.status})` };
    }
    if (Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (restartedAt === null)
    return {
      outcome: 'no_answer',
      message: `no answer from the running server within ${seconds} s: is it running? (the restart stays asked for)`,
    };
  const problem = last?.last_error ?? null;
  return {
    outcome: 'silent',
    message: `${node.mn_id} restarted, but its daemon did not answer within ${seconds} s${problem ? `: ${problem}` : ''}`,
  };
}
