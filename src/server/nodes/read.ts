/**
 * What other domains may read of nodes, hosts and placements (deploy's limits, customers'
 * lists, coins' chain height, the console overview, business metrics). The SQL stays in
 * nodes/'s own query files, private to this folder; this is the door other folders use.
 */
export {
  chargedNodesByOwner,
  countChargedNodes,
  countUserNodes,
  entryUsed,
  listUserNodes,
  sameDeployExists,
  validatorKeyInUse,
} from './repository';
export {
  chainObservation,
  deploysSince,
  hostedAt,
  hostUsage,
  listHosts,
  monitorCheckSpread,
  nodesByStatus,
  planSlots,
  realNodeCounts,
  hostedCounts,
  userNodes,
  unplacedCounts,
} from './fleet-queries';
