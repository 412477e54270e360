/**
 * A node and a host as the fleet's adapters see them: plain shapes, so the fleet reads no
 * table. nodes/ passes its rows (a `Masternode` and a `Host` have these fields).
 */

/** The node's name on its engine, its daemon profile and the daemon's RPC credentials. */
export type DaemonNode = {
  mn_id: string;
  daemon_profile: string | null;
  rpc_user: string | null;
  rpc_password: string | null;
  /** EVM validators: the key whose state the beacon node is asked for (none: not a validator). */
  validator_pubkey?: string | null;
};

/** Which engine runs a host's nodes, under which id and name. */
export type EngineHost = { id: number; name: string; engine: 'local' | 'docker' };
