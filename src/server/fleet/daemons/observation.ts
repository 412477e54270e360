/** What one look at a node's daemon tells the monitor, whatever its family. */
export type Observation = {
  synced: boolean;
  blocks: number | null;
  wallet: { version: string; protocol_version: string; connections: number | null } | null;
  /** The daemon's own wording of its network status (may be several words), or null where the coin has none. */
  networkStatus: string | null;
  /** True when the daemon says the node still has to be registered/started by its owner. */
  startRequired: boolean;
  lastPaidHeight: number | null;
  rewardFrequencyS: number | null;
};
