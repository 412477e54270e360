import { observeBeacon } from './daemons/beacon';
import { observeBitcoin } from './daemons/bitcoin';
import { observeMonero } from './daemons/monero';
import { DaemonError } from './daemons/http';
import type { Observation } from './daemons/observation';
import type { DaemonNode } from './daemon-node';
import type { RpcEndpoint } from './engine';
import type { DaemonProfile } from './profiles';
import { normalPubkey } from './validator-client';

export const DAEMON_TIMEOUT_MS = 5_000;

/** The node's RPC credentials; the simulator asks for none. */
export function rpcAuth(
  node: Pick<DaemonNode, 'rpc_user' | 'rpc_password'>,
  simulated: boolean,
): { user: string; password: string } | undefined {
  return node.rpc_user && node.rpc_password && !simulated
    ? { user: node.rpc_user, password: node.rpc_password }
    : undefined;
}

/** One look at a node's daemon through its family's RPC. */
export function observe(
  node: DaemonNode,
  profile: DaemonProfile,
  endpoint: RpcEndpoint,
  timeoutMs = DAEMON_TIMEOUT_MS,
): Promise<Observation> {
  const simulated = profile.run === 'simulator';
  const auth = rpcAuth(node, simulated);
  switch (profile.rpc) {
    case 'bitcoin':
      // A real daemon's own names for the status and protx calls (its profile's `calls`).
      return observeBitcoin(
        { endpoint, auth, timeoutMs, calls: profile.run === 'binary' ? profile.calls : undefined },
        profile.flavour ?? 'classic',
        simulated,
      );
    case 'dash':
      return observeBitcoin({ endpoint, auth, timeoutMs }, 'dash', simulated);
    case 'monero':
      return observeMonero(
        endpoint,
        timeoutMs,
        simulated || profile.flavour !== 'none',
        profile.run === 'binary' ? profile.node_word : undefined,
      );
    case 'evm':
      // The validator's own state: absent from the beacon chain until its deposit is seen.
      return observeBeacon(endpoint, timeoutMs, node.validator_pubkey ? normalPubkey(node.validator_pubkey) : null);
    case 'other':
      return Promise.reject(
        new DaemonError(
          `daemon profile ${node.daemon_profile} speaks an RPC the platform cannot read yet`,
          'bad-reply',
        ),
      );
  }
}
