/**
 * A validator's state on its beacon chain (the monitor's `status_on_network`, as the beacon
 * node names it) in the customer's words. None: the beacon chain does not know it yet,
 * which for a synced node means its deposit has not been seen.
 */
const WORDS: Record<string, string> = {
  PENDING_INITIALIZED: 'Pending: deposit seen, waiting to join the activation queue',
  PENDING_QUEUED: 'Pending: in the activation queue',
  ACTIVE_ONGOING: 'Active',
  ACTIVE_EXITING: 'Exiting',
  ACTIVE_SLASHED: 'Slashed: being exited',
  EXITED_UNSLASHED: 'Exited',
  EXITED_SLASHED: 'Exited after slashing',
  WITHDRAWAL_POSSIBLE: 'Exited: withdrawal possible',
  WITHDRAWAL_DONE: 'Exited: withdrawn',
};

export function activationState(status: string, onNetwork: string | null): string {
  if (onNetwork) return WORDS[onNetwork.toUpperCase()] ?? onNetwork.toLowerCase().replace(/_/g, ' ');
  if (status === 'start required') return 'Deposit not seen yet';
  if (status === 'syncing' || status === 'deploying') return 'Not known until the node is synced';
  return '--';
}

/** The beacon chain says the validator is active and not leaving: the one state an exit is sent from. */
export const canExit = (onNetwork: string | null) => onNetwork?.toUpperCase() === 'ACTIVE_ONGOING';
