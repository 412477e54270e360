/**
 * Flap damping of "node down" / "back up" (issue 9), a pure rule over a node's saved
 * state: the monitor reads the state, calls `dampen` with what the check saw and the
 * check's time, raises what it answers and saves the new state in the same transaction.
 * So a restart neither loses an alert (the failing streak's start is saved) nor repeats
 * one (whether a down was raised is saved).
 *
 * - "down" is raised once the node has failed every check for `downAfterMs` (3 minutes).
 * - "back up" is raised only after a down was raised, at the first good check.
 * - At most one down/up pair per `pairWindowMs` (30 minutes), counted from the last
 *   raised down. An outage that reaches the threshold inside the window is a flap: it is
 *   counted, not raised, and the count goes into the next down message (`flaps`). If such
 *   an outage lasts past the window's end, its down is raised then (the node is really
 *   down), with the earlier flaps counted.
 * Short failures (under the threshold) are not flaps: they never would have alerted.
 */
export type DampingState = {
  /** Time of the first failed check of the current failing streak; null when the last check was good. */
  failingSince: number | null;
  /** A down was raised and its "back up" is still owed. */
  downRaised: boolean;
  /** When the last down was raised (the 30-minute window starts there). */
  lastDownAt: number | null;
  /** The current streak reached the threshold inside the window and was counted as a flap. */
  streakCounted: boolean;
  /** Flaps counted since the last raised down. */
  flaps: number;
};

export const initialDamping: DampingState = {
  failingSince: null,
  downRaised: false,
  lastDownAt: null,
  streakCounted: false,
  flaps: 0,
};

export type DampingRule = { downAfterMs: number; pairWindowMs: number };
export const DEFAULT_PAIR_WINDOW_MS = 30 * 60_000;

export type DampingAlert = { kind: 'node_down'; flaps: number } | { kind: 'node_up' } | null;

export function dampen(
  state: DampingState,
  failing: boolean,
  now: number,
  rule: DampingRule,
): { state: DampingState; alert: DampingAlert } {
  if (!failing) {
    const next: DampingState = { ...state, failingSince: null, downRaised: false, streakCounted: false };
    return { state: next, alert: state.downRaised ? { kind: 'node_up' } : null };
  }
  const failingSince = state.failingSince ?? now;
  const s: DampingState = { ...state, failingSince };
  if (s.downRaised || now - failingSince < rule.downAfterMs) return { state: s, alert: null };
  const inWindow = s.lastDownAt !== null && now - s.lastDownAt < rule.pairWindowMs;
  if (inWindow) {
    if (s.streakCounted) return { state: s, alert: null };
    return { state: { ...s, streakCounted: true, flaps: s.flaps + 1 }, alert: null };
  }
  // This streak is raised itself: if it was counted as a flap, it is not one "more time".
  const flaps = s.streakCounted ? s.flaps - 1 : s.flaps;
  return {
    state: { ...s, downRaised: true, lastDownAt: now, streakCounted: false, flaps: 0 },
    alert: { kind: 'node_down', flaps },
  };
}
