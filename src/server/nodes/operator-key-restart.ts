import * as v from 'valibot';
import type { DB } from '../db/open';
import type { CoinRecord, Host, Masternode } from '../db/schema';
import type { Logger } from '../kernel/log';
import { withOperatorSecret } from './node-secrets';
import { operatorKeyFor } from './operator-key';
import { updateNodeRow } from './repository';
import type { SecretBox } from '../secrets/box';
import { FleetActionError } from '../fleet/access';
import { bitcoinCall } from '../fleet/daemons/jsonrpc';
import type { DaemonFile, NodeEngine } from '../fleet/engine';
import { rpcAuth } from '../fleet/observe';
import type { DaemonProfile } from '../fleet/profiles';
import { buildSpec } from './daemon-spec';

/** What the owner reads when quick setup cannot give the node its key (the action shows it as is). */
export const KEY_MESSAGES = {
  busy: 'Your node is busy being restarted or changed. Please try again in a minute.',
  unsupported: 'Quick setup cannot be completed from the node page for this node. Please contact support.',
  failed:
    'Your node did not come back with the new key, so it keeps running as before. Please try again in a few minutes; if it fails again, contact support.',
} as const;

export type KeyRestartDeps = {
  db: DB;
  log: Logger;
  box: Pick<SecretBox, 'open' | 'seal'> | undefined;
  /** DATA_DIR/fleet, as for provisioning. */
  fleetDir: string;
  /** How long a restarted daemon has to answer RPC again. */
  backTimeoutMs: number;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NetworkInfo = v.looseObject({ version: v.number() });

/** The daemon's config file as the node's settings and `key` make it, with the ports the engine already has. */
async function configFiles(
  deps: KeyRestartDeps,
  node: Masternode,
  coin: CoinRecord,
  profile: DaemonProfile,
  host: Host,
  key: string | null,
): Promise<DaemonFile[]> {
  const ports = JSON.parse(node.ports || '{}') as Record<string, number>;
  const { spec } = await buildSpec(node, coin, profile, host, deps.fleetDir, { operatorKey: key, ports });
  return spec.files ?? [];
}

/** Until the daemon answers `getnetworkinfo` again; throws early when the engine says it stopped or crashed (a config it refused). */
async function untilAnswering(engine: NodeEngine, node: Masternode, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const st = await engine.inspect(node.mn_id);
    if (st.state === 'missing') throw new Error('the daemon is gone');
    if (st.state === 'exited' || st.state === 'restarting')
      throw new Error(
        `the daemon ${st.state === 'exited' ? 'exited' : 'crashed'} (${st.error ?? `code ${st.exitCode ?? '?'}`})`,
      );
    try {
      const endpoint = await engine.rpcEndpoint(node.mn_id);
      await bitcoinCall({ endpoint, auth: rpcAuth(node, false), timeoutMs: 3_000 }, 'getnetworkinfo', [], NetworkInfo);
      return;
    } catch (err) {
      last = (err as Error).message; // loading (-28), not listening yet
    }
    await sleep(250);
  }
  throw new Error(`no RPC answer within ${Math.round(timeoutMs / 1000)} s (${last})`);
}

/**
 * A real daemon takes its operator key only from its config, at start: the key is sealed
 * first (so a crash half-way leaves the database saying what the next start writes), the
 * config rewritten through the engine, the daemon restarted and waited for. Any failure
 * puts the old secrets and config back and restarts the daemon with them.
 */
export async function restartWithOperatorKey(
  deps: KeyRestartDeps,
  node: Masternode,
  coin: CoinRecord,
  profile: DaemonProfile,
  host: Host,
  engine: NodeEngine,
  secret: string,
): Promise<void> {
  const box = deps.box;
  if (
    profile.run !== 'binary' ||
    !profile.operator_key_option ||
    !profile.config_file ||
    profile.rpc !== 'bitcoin' ||
    !box
  ) {
    throw new FleetActionError(KEY_MESSAGES.unsupported, 'unsupported');
  }
  const oldKey = operatorKeyFor(box, node, coin.family);
  const next = await configFiles(deps, node, coin, profile, host, secret);
  const old = await configFiles(deps, node, coin, profile, host, oldKey);
  const t0 = Date.now();
  await updateNodeRow(deps.db, node.id, { secrets: withOperatorSecret(box, node, secret) });
  try {
    await engine.writeFiles(node.mn_id, next);
    await engine.stop(node.mn_id);
    await engine.start(node.mn_id);
    await untilAnswering(engine, node, deps.backTimeoutMs);
  } catch (err) {
    deps.log.error('operator key not applied; putting the old config back', {
      node: node.mn_id,
      host: host.name,
      error: (err as Error).message,
    });
    await updateNodeRow(deps.db, node.id, { secrets: node.secrets });
    try {
      await engine.writeFiles(node.mn_id, old);
      await engine.stop(node.mn_id);
      await engine.start(node.mn_id);
    } catch (undo) {
      deps.log.error('old config not restored after a failed operator key', {
        node: node.mn_id,
        host: host.name,
        error: (undo as Error).message,
      });
    }
    throw new FleetActionError(KEY_MESSAGES.failed, 'failed');
  }
  deps.log.info('operator key applied: daemon restarted with its new config', {
    node: node.mn_id,
    host: host.name,
    ms: Date.now() - t0,
  });
}
