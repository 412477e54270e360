/** What one look at a node's daemon tells the monitor, whatever its family. */
export type Observation = {
  synced: boolean;
  blocks: number | null;
  /** The chain's height the node is catching up with (bitcoin `headers`, monero `target_height`,
   * beacon `head_slot + sync_distance`); null where the daemon says none. */
  headers: number | null;
  wallet: { version: string; protocol_version: string; connections: number | null } | null;
  /** The daemon's own wording of its network status (may be several words), or null where the coin has none. */
  networkStatus: string | null;
  /** True when the daemon says the node still has to be registered/started by its owner. */
  startRequired: boolean;
  lastPaidHeight: number | null;
  rewardFrequencyS: number | null;
  /** Dash family (`protx info`): proof-of-service penalty score; the network bans a node whose score passes its limit. */
  posePenalty: number | null;
  /** Dash family: height at which the node was PoSe-banned, or null when it is not banned. */
  poseBanHeight: number | null;
  /** Dash family (`protx info`), once registered: the collateral's address, whose activity the owner sees. */
  collateralAddress?: string | null;
};

/** A look that found the chain and the wallet and nothing more yet: what a family's own calls then fill in. */
export function chainObservation(
  synced: boolean,
  blocks: number | null,
  wallet: Observation['wallet'],
  headers: number | null = null,
): Observation {
  return {
    synced,
    blocks,
    headers,
    wallet,
    networkStatus: null,
    startRequired: false,
    lastPaidHeight: null,
    rewardFrequencyS: null,
    posePenalty: null,
    poseBanHeight: null,
  };
}
