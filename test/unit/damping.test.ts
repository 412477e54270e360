import { describe, expect, it } from 'vitest';
import { dampen, initialDamping, type DampingAlert, type DampingState } from '../../src/server/notifications/damping';

const MIN = 60_000;
const rule = { downAfterMs: 3 * MIN, pairWindowMs: 30 * MIN };

/** A fake clock driving checks every `step` ms; the state goes through JSON as the database row would (restart-safe). */
function node(start = 1_000_000, step = 30_000) {
  let now = start;
  let state: DampingState = initialDamping;
  const alerts: Array<{ at: number; alert: NonNullable<DampingAlert> }> = [];
  const check = (failing: boolean) => {
    const r = dampen(JSON.parse(JSON.stringify(state)) as DampingState, failing, now, rule);
    state = r.state;
    if (r.alert) alerts.push({ at: now - start, alert: r.alert });
    now += step;
  };
  /** Checks for `ms` of time, all failing or all good. */
  const run = (failing: boolean, ms: number) => {
    for (let t = 0; t < ms; t += step) check(failing);
  };
  return {
    check,
    run,
    alerts,
    get state() {
      return state;
    },
    set state(s) {
      state = s;
    },
    get now() {
      return now;
    },
  };
}

describe('flap damping of node down / back up', () => {
  it('raises down only after 3 minutes of failed checks in a row', () => {
    const n = node();
    n.run(false, 5 * MIN);
    n.run(true, 3 * MIN); // checks at 0, 30 s, …, 2:30 of the streak: under 3 minutes
    expect(n.alerts).toEqual([]);
    n.check(true); // 3:00 into the streak
    expect(n.alerts.map((a) => a.alert)).toEqual([{ kind: 'node_down', flaps: 0 }]);
    n.run(true, 10 * MIN);
    expect(n.alerts).toHaveLength(1);
  });

  it('a good check breaks the streak: failures that never last 3 minutes raise nothing', () => {
    const n = node();
    for (let i = 0; i < 20; i++) {
      n.run(true, 2.5 * MIN);
      n.check(false);
    }
    expect(n.alerts).toEqual([]);
  });

  it('raises back up only after a down, at the first good check', () => {
    const n = node();
    n.run(false, MIN);
    expect(n.alerts).toEqual([]);
    n.run(true, 3.5 * MIN);
    n.check(false);
    n.run(false, 5 * MIN);
    expect(n.alerts.map((a) => a.alert.kind)).toEqual(['node_down', 'node_up']);
  });

  it('gives a flapping node at most one down/up pair per 30 minutes, and counts the flaps in the next down', () => {
    const n = node();
    // A node that fails for 4 minutes and recovers for 1, for two hours (24 outages).
    for (let i = 0; i < 24; i++) {
      n.run(true, 4 * MIN);
      n.run(false, MIN);
    }
    const downs = n.alerts.filter((a) => a.alert.kind === 'node_down');
    const ups = n.alerts.filter((a) => a.alert.kind === 'node_up');
    // Downs at 3:00 and then the first outage to reach 3 minutes 30 minutes or more after the last down.
    expect(downs.map((a) => a.at / MIN)).toEqual([3, 33, 63, 93]);
    expect(ups).toHaveLength(4);
    // Each up follows its down; no two downs without an up between them.
    expect(n.alerts.map((a) => a.alert.kind)).toEqual([
      'node_down',
      'node_up',
      'node_down',
      'node_up',
      'node_down',
      'node_up',
      'node_down',
      'node_up',
    ]);
    // Between the down at 3 and the one at 33, five more outages reached the threshold (8, 13, 18, 23, 28).
    expect(downs.map((a) => (a.alert as { flaps: number }).flaps)).toEqual([0, 5, 5, 5]);
    // Every 30-minute window holds at most one down.
    for (let i = 1; i < downs.length; i++) expect(downs[i].at - downs[i - 1].at).toBeGreaterThanOrEqual(30 * MIN);
  });

  it('raises the down of an outage that began as a flap once the window ends, counting only the flaps before it', () => {
    const n = node(0, MIN);
    n.run(true, 4 * MIN); // down at 3
    n.run(false, MIN); // up at 4
    n.run(true, 4 * MIN); // flap (reaches 3 min at 8)
    n.run(false, MIN);
    n.run(true, 40 * MIN); // a real outage from 10, counted at 13, raised when the window ends at 33
    const downs = n.alerts.filter((a) => a.alert.kind === 'node_down');
    expect(downs.map((a) => [a.at / MIN, (a.alert as { flaps: number }).flaps])).toEqual([
      [3, 0],
      [33, 1],
    ]);
    n.check(false);
    expect(n.alerts.at(-1)!.alert.kind).toBe('node_up');
  });

  it('is restart-safe: state saved before a restart neither loses nor repeats an alert', () => {
    const n = node(0, MIN);
    n.run(true, 2 * MIN); // failing since 0, not yet alerted
    const saved = JSON.stringify(n.state);
    // A restart: the process is gone; a new one reads the row and goes on at the next check.
    const m = node(0, MIN);
    m.state = JSON.parse(saved) as DampingState;
    // The clock goes on from where it was: 2 minutes in.
    let now = 2 * MIN;
    let s = m.state;
    const out: DampingAlert[] = [];
    for (let i = 0; i < 5; i++, now += MIN) {
      const r = dampen(JSON.parse(JSON.stringify(s)) as DampingState, true, now, rule);
      s = r.state;
      if (r.alert) out.push(r.alert);
    }
    // Down at 3 minutes of the streak that began before the restart (not 3 minutes after it).
    expect(out).toEqual([{ kind: 'node_down', flaps: 0 }]);
    expect(s.lastDownAt).toBe(3 * MIN);
    // Another restart after the down was raised: no second down, and the up still comes.
    const again = dampen(JSON.parse(JSON.stringify(s)) as DampingState, true, now, rule);
    expect(again.alert).toBeNull();
    expect(dampen(again.state, false, now + MIN, rule).alert).toEqual({ kind: 'node_up' });
  });

  it('a good node with no history raises nothing', () => {
    expect(dampen(initialDamping, false, 0, rule)).toEqual({ state: initialDamping, alert: null });
  });
});
