import type { DaemonNode } from './daemon-node';
import type { RpcEndpoint } from './engine';
import type { DaemonFacts } from './daemon-facts';
import type { DaemonProfile } from './profiles';

/**
 * What request handlers may ask of the fleet (AppDeps.fleet): its daemon profiles, and
 * a way to reach a node's daemon for the customer's actions (register, quick setup,
 * proposals, burn checks). nodes/runtime.ts implements it with the control loop and the
 * engines; it is declared here, below rpc/, so the context can carry it. Its methods take the
 * node rows nodes/ reads (a `DaemonNode` names the fields the fleet itself needs).
 */
export interface FleetAccess {
  readonly profiles: Record<string, DaemonProfile>;
  /** What each profile's source says (catalog/daemon-facts): only a verified one is offered in production. */
  readonly facts: Record<string, DaemonFacts>;
  /** FLEET_SIMULATOR: may the simulator serve nodes? */
  readonly simulator: boolean;
  /** Runs the control loop soon: a deploy or a delete is acted on at once, not at the next tick. */
  reconcile(): Promise<void>;
  /** Where the node's daemon answers, with its RPC credentials; null when it is not running. */
  daemonOf(node: DaemonNode): Promise<DaemonAccess | null>;
  /** Looks a burn transaction up on the coin's daemon (SIN's deploy); never throws for the daemon's failures. */
  checkBurn: BurnChecker;
  /**
   * The last `tail` lines of the node's daemon output as its engine holds them (a
   * simulated node: the simulator's synthetic log of it), unmasked: the caller masks
   * secrets before anyone sees them. Null when the node is not placed on a host.
   */
  daemonLog(node: DaemonNode, tail: number): Promise<string | null>;
  /** Stops the node's daemon now (a validator before its exit file); the delete then destroys it. */
  stopNode(node: DaemonNode): Promise<void>;
  /**
   * Quick setup: the node runs with the owner's operator key from now on. The key is sealed
   * in the node's secrets; a real daemon gets its config rewritten with it and is restarted
   * through its engine, and this resolves only once the daemon answers again (the simulator
   * takes the key through its admin API). Throws `FleetActionError` with the owner's
   * message; on a failure the node keeps its old key, config and daemon.
   */
  setOperatorKey(node: DaemonNode, secret: string): Promise<void>;
  /** Demo only: the simulated beacon chain sees a simulated validator's deposit. Throws for any other node. */
  simulateDeposit(node: DaemonNode): Promise<void>;
  /**
   * A daemon upgrade of one node (a rollout's step): resolves once it is healthy on
   * `version`; otherwise it is put back on `back` and this throws `FleetActionError`.
   */
  runNodeOnVersion(node: DaemonNode, version: string | null, back: string | null): Promise<void>;
}

/** A fleet action the owner asked for did not happen; `message` is for them, and nothing changed. */
export class FleetActionError extends Error {
  override readonly name = 'FleetActionError';
  constructor(
    message: string,
    /** busy: try again later; unsupported: this node cannot do it; failed: it was tried and undone. */
    readonly kind: 'busy' | 'unsupported' | 'failed',
  ) {
    super(message);
  }
}

/** A burn transaction as the coin's chain knows it: its burn output, or why it does not serve. */
export type BurnResult = { ok: true; output_id: number } | { ok: false; message: string };
export type BurnChecker = (coinId: string, txid: string) => Promise<BurnResult>;

export type DaemonAccess = {
  endpoint: RpcEndpoint;
  auth?: { user: string; password: string };
  profile: DaemonProfile;
  simulated: boolean;
  /**
   * EVM validators: where the validator client's Keymanager API answers (the simulator's
   * node path for simulated ones). Asked only by the call that uses it: an engine that
   * cannot say (a container made before it had the port) fails that call alone.
   */
  keymanager?: () => Promise<RpcEndpoint>;
};
