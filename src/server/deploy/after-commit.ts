import type { Context } from '../rpc/context';
import type { RequestDeps } from '../nodes/lifecycle';

export function requestDeps(ctx: Context): RequestDeps {
  return { profiles: ctx.fleet.profiles, facts: ctx.fleet.facts, log: ctx.log, simulator: ctx.fleet.simulator };
}

/** After the commit: deliver the queue events now and let the control loop place the nodes at once. */
export function actOnDeploy(ctx: Context) {
  void ctx.hub.poke();
  ctx.fleet.reconcile().catch((err: unknown) => ctx.log.error('reconcile after deploy failed', { err }));
}

