import type { DaemonNode } from './daemon-node';
import type { NodeEngine } from './engine';
import { observe } from './observe';
import type { DaemonProfile } from './profiles';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Until the node's daemon answers on `version` (its version text names it; null: the
 * profile's, whatever it reports) and is synced;
 * throws with what it last saw when the engine says it stopped, or at the deadline. What
 * "healthy on the new version" means before a rollout's next batch.
 */
export async function untilHealthyOn(
  engine: NodeEngine,
  node: DaemonNode,
  profile: DaemonProfile,
  version: string | null,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const st = await engine.inspect(node.mn_id);
    if (st.state === 'missing' || st.state === 'exited')
      throw new Error(
        `the daemon ${st.state === 'missing' ? 'is gone' : `exited (${st.error ?? `code ${st.exitCode ?? '?'}`})`}`,
      );
    try {
      const seen = await observe(node, profile, await engine.rpcEndpoint(node.mn_id), 3_000);
      const reported = seen.wallet?.version ?? '';
      if (version !== null && !reported.includes(version)) last = `it reports version "${reported}"`;
      else if (!seen.synced) last = `it is on ${version ?? 'its version'} but not synced (block ${seen.blocks ?? '?'})`;
      else return;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() >= deadline)
      throw new Error(`not healthy on ${version ?? 'its version'} within ${Math.round(timeoutMs / 1000)} s: ${last}`);
    await sleep(Math.min(1000, Math.max(50, timeoutMs / 20)));
  }
}
