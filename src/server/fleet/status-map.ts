import { networkStatusColour, type NodeStatus } from '../../shared/node-status';
import type { DaemonError } from './daemons/http';
import type { Observation } from './daemons/observation';
import type { EngineState } from './engine';

/** Seconds after a start during which a silent daemon still counts as deploying. */
export const STARTUP_GRACE_MS = 60_000;

/**
 * A node's status from what its engine and its daemon say (the classic flow:
 * deploying → syncing → start required → pending → running; error when the daemon is
 * gone or crashed; unknown when it answers nothing usable).
 */
export function nodeStatusFrom(input: {
  engine: EngineState;
  obs: Observation | null;
  error: DaemonError | Error | null;
  networkStatus: string | null;
  now: number;
}): { status: NodeStatus; problem: string | null } {
  const { engine, obs, error, now } = input;
  if (engine.state === 'missing') return { status: 'error', problem: 'The daemon is gone from its host.' };
  if (engine.state === 'restarting')
    return {
      status: 'error',
      problem: `The daemon crashed and is being restarted (${engine.restarts} restart${engine.restarts === 1 ? '' : 's'}).`,
    };
  if (engine.state === 'exited') return { status: 'error', problem: engine.error ?? 'The daemon stopped.' };
  if (engine.state === 'created') return { status: 'deploying', problem: null };
  if (!obs) {
    const young = engine.startedAt !== null && now - engine.startedAt < STARTUP_GRACE_MS;
    if (young) return { status: 'deploying', problem: null };
    return { status: 'unknown', problem: error ? `The daemon did not answer usefully: ${error.message}` : null };
  }
  if (!obs.synced) return { status: 'syncing', problem: null };
  if (obs.startRequired) return { status: 'start required', problem: null };
  const net = input.networkStatus?.toUpperCase() ?? null;
  // A validator that exited (EXITED_*, WITHDRAWAL_*) has left the set like a removed masternode.
  if (net && /REMOVED|OUTPOINT_SPENT|^EXITED|^WITHDRAWAL/.test(net)) return { status: 'removed', problem: null };
  if (net && networkStatusColour(net) === 'warning') return { status: 'pending', problem: null };
  if (net === 'PRE_ENABLED') return { status: 'pending', problem: null };
  return { status: 'running', problem: null };
}
