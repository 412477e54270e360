import { describe, expect, it } from 'vitest';
import {
  engineRetryDelayMs,
  LIFECYCLE_STATES,
  LifecycleError,
  nextState,
  statesFor,
  type LifecycleEvent,
  type LifecycleState,
} from '../../src/shared/lifecycle';
import { FAMILIES, FAMILY, familyOf, entryRequired } from '../../src/shared/families';

describe('node lifecycle', () => {
  it('walks the happy path requested → placing → provisioning → live → deleting → deleted', () => {
    const path: [LifecycleEvent, LifecycleState][] = [
      ['place', 'placing'],
      ['placed', 'provisioning'],
      ['engine_retry', 'provisioning'],
      ['started', 'live'],
      ['delete', 'deleting'],
      ['destroyed', 'deleted'],
    ];
    let s: LifecycleState = 'requested';
    for (const [event, to] of path) {
      s = nextState(s, event);
      expect(s).toBe(to);
    }
  });

  it('fails a node with no capacity or after the engine gave up, and a failed node can still be deleted', () => {
    expect(nextState('placing', 'no_capacity')).toBe('failed');
    expect(nextState('provisioning', 'engine_gave_up')).toBe('failed');
    expect(nextState('failed', 'delete')).toBe('deleting');
  });

  it('refuses every transition the table does not name', () => {
    const events: LifecycleEvent[] = [
      'place',
      'placed',
      'no_capacity',
      'started',
      'engine_retry',
      'engine_gave_up',
      'delete',
      'destroyed',
    ];
    let allowed = 0;
    for (const from of LIFECYCLE_STATES) {
      for (const e of events) {
        if (statesFor(e).includes(from)) {
          allowed++;
          expect(() => nextState(from, e)).not.toThrow();
        } else expect(() => nextState(from, e)).toThrow(LifecycleError);
      }
    }
    expect(allowed).toBe(13);
    // Nothing leaves deleted; a live node cannot be placed again.
    expect(() => nextState('deleted', 'delete')).toThrow(/deleted cannot take "delete"/);
    expect(() => nextState('live', 'place')).toThrow(LifecycleError);
  });

  it('backs off engine retries, capped at a minute', () => {
    expect([1, 2, 3, 4, 10].map(engineRetryDelayMs)).toEqual([2000, 4000, 8000, 16000, 60000]);
  });
});

describe('family registry', () => {
  it('has a profile for every family, with Advanced starting inside the guide', () => {
    for (const f of FAMILIES) {
      expect(FAMILY[f].advancedStep).toBeGreaterThanOrEqual(1);
      expect(FAMILY[f].advancedStep).toBeLessThanOrEqual(FAMILY[f].steps);
    }
  });

  it('gives the spec its steps and messages', () => {
    expect([FAMILY.sin.steps, FAMILY.sin.advancedStep]).toEqual([9, 7]);
    expect([FAMILY.dip003.steps, FAMILY.dip003.advancedStep]).toEqual([4, 4]);
    expect([FAMILY.evm.steps, FAMILY.evm.advancedStep]).toEqual([5, 4]);
    expect(entryRequired('nrg')).toBe('Address required.');
    expect(entryRequired('zen')).toBe('Address required.');
    expect(entryRequired('monero')).toBe('Address required.');
    expect(entryRequired('playa3ull')).toBe('License key required.');
    expect(entryRequired('classic')).toBe('Transaction ID required.');
    expect(['zen', 'nrg', 'playa3ull', 'defi'].filter((f) => !familyOf(f).networkStatus).length).toBe(4);
    expect(familyOf('something-new')).toBe(FAMILY.classic);
  });
});
