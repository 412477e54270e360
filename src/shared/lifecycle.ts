/**
 * A node's life, in one place (issue 8): the deploy writes it `requested`; the fleet
 * places it (`placing`: a host and a free address:port pair) and starts it on its engine
 * (`provisioning`, retried with backoff); once the engine runs it, it is `live` and the
 * monitor's observations say how it does. The owner's delete makes it `deleting` until
 * the engine destroyed it (`deleted`). `failed` keeps the reason and is never charged.
 */
export const LIFECYCLE_STATES = [
  'requested',
  'placing',
  'provisioning',
  'live',
  'deleting',
  'deleted',
  'failed',
] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

export type LifecycleEvent =
  | 'place' // the fleet takes a requested node
  | 'placed' // a host and port were reserved
  | 'no_capacity' // no host can take it
  | 'started' // the engine created and started it
  | 'engine_retry' // an engine failure, tried again later
  | 'engine_gave_up' // engine failures exhausted the retries
  | 'delete' // the owner (or the operator) deletes it
  | 'destroyed'; // the engine removed it

const TRANSITIONS: Record<LifecycleEvent, Partial<Record<LifecycleState, LifecycleState>>> = {
  place: { requested: 'placing' },
  placed: { placing: 'provisioning' },
  no_capacity: { placing: 'failed', requested: 'failed' },
  started: { provisioning: 'live' },
  engine_retry: { provisioning: 'provisioning' },
  engine_gave_up: { provisioning: 'failed' },
  delete: {
    requested: 'deleting',
    placing: 'deleting',
    provisioning: 'deleting',
    live: 'deleting',
    failed: 'deleting',
  },
  destroyed: { deleting: 'deleted' },
};

export class LifecycleError extends Error {
  override readonly name = 'LifecycleError';
}

/** The state after `event`, or a LifecycleError: a transition the table does not allow is a bug. */
export function nextState(from: LifecycleState, event: LifecycleEvent): LifecycleState {
  const to = TRANSITIONS[event][from];
  if (!to) throw new LifecycleError(`a node that is ${from} cannot take "${event}"`);
  return to;
}

/** The states `event` may start from (conditional updates: `WHERE state IN (...)`). */
export function statesFor(event: LifecycleEvent): LifecycleState[] {
  return Object.keys(TRANSITIONS[event]) as LifecycleState[];
}

/** Still being set up: shown in the build queue, not yet in the portfolio list. */
export const SETTING_UP: readonly LifecycleState[] = ['requested', 'placing', 'provisioning'];

/** Exists for its owner: lists, totals, charges (failed ones are shown but never charged). */
export const VISIBLE: readonly LifecycleState[] = ['requested', 'placing', 'provisioning', 'live', 'failed'];

/**
 * The one definition of a node that pays its daily fee now: from its creation until its
 * owner (or unpaid fees) deleted it, whatever it does (being set up, live, offline), but
 * not once its setup failed: that is the platform's failure, not hosting (src/server/billing/README.md). The daily charge asks the same of a past day from the
 * node's dates (billing/charge-queries.ts `chargedOn`); totals and lists use this.
 */
export const CHARGED: readonly LifecycleState[] = ['requested', 'placing', 'provisioning', 'live'];

/** Retries of a failed engine create before the node is failed, and their waits. */
export const ENGINE_RETRIES = 4;
export function engineRetryDelayMs(attempt: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt - 1));
}
