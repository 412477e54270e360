import { describe, expect, it } from 'vitest';
import { DaemonError } from '../../src/server/fleet/daemons/http';
import type { Observation } from '../../src/server/fleet/daemons/observation';
import type { EngineState } from '../../src/server/fleet/engine';
import { nodeStatusFrom, STARTUP_GRACE_MS } from '../../src/server/fleet/status-map';

const now = 1_800_000_000_000;
const running: EngineState = {
  state: 'running',
  restarts: 0,
  startedAt: now - 10 * 60_000,
  exitCode: null,
  error: null,
};
const obs = (o: Partial<Observation> = {}): Observation => ({
  synced: true,
  blocks: 100,
  headers: 100,
  wallet: null,
  networkStatus: null,
  startRequired: false,
  lastPaidHeight: null,
  rewardFrequencyS: null,
  posePenalty: null,
  poseBanHeight: null,
  ...o,
});
const status = (
  engine: Partial<EngineState>,
  o: Observation | null,
  networkStatus: string | null = null,
  error: Error | null = null,
) => nodeStatusFrom({ engine: { ...running, ...engine }, obs: o, error, networkStatus, now });

describe('node status from engine and daemon', () => {
  it('deploying while created or silent just after start', () => {
    expect(status({ state: 'created', startedAt: null }, null).status).toBe('deploying');
    expect(
      status({ startedAt: now - STARTUP_GRACE_MS / 2 }, null, null, new DaemonError('x', 'unreachable')).status,
    ).toBe('deploying');
  });

  it('unknown when a started daemon answers nothing usable, with the reason', () => {
    const r = status({}, null, null, new DaemonError('getblockchaininfo: unexpected reply', 'bad-reply'));
    expect(r).toEqual({
      status: 'unknown',
      problem: 'The daemon did not answer usefully: getblockchaininfo: unexpected reply',
    });
  });

  it('error when the daemon is gone, crashed or stopped', () => {
    expect(status({ state: 'missing' }, null)).toEqual({
      status: 'error',
      problem: 'The daemon is gone from its host.',
    });
    expect(status({ state: 'restarting', restarts: 2 }, null).problem).toMatch(/crashed.*2 restarts/);
    expect(status({ state: 'exited', error: 'exited (code 1)' }, null)).toEqual({
      status: 'error',
      problem: 'exited (code 1)',
    });
  });

  it('syncing, start required, pending, running, removed', () => {
    expect(status({}, obs({ synced: false })).status).toBe('syncing');
    expect(status({}, obs({ startRequired: true }), 'WAITING_FOR_PROTX').status).toBe('start required');
    expect(status({}, obs(), 'PRE_ENABLED').status).toBe('pending');
    expect(status({}, obs(), 'PENDING_QUEUED').status).toBe('pending');
    expect(status({}, obs(), 'WATCHDOG_EXPIRED').status).toBe('pending');
    expect(status({}, obs(), 'ENABLED').status).toBe('running');
    expect(status({}, obs(), 'ACTIVE_ONGOING').status).toBe('running');
    expect(status({}, obs(), null).status).toBe('running'); // a plain daemon (no network status), synced
    expect(status({}, obs(), 'REMOVED').status).toBe('removed');
    expect(status({}, obs(), 'OUTPOINT_SPENT').status).toBe('removed');
    // The daemon runs; the network's verdict shows as the network status.
    expect(status({}, obs(), 'POSE_BANNED').status).toBe('running');
  });
});
