/**
 * The status catalogue of deployment-and-nodes.md section 4, in one place for the
 * server (monitor) and the client (dots, badges, help popovers).
 */
export const NODE_STATUSES = [
  'deploying',
  'unknown',
  'syncing',
  'pending',
  'start required',
  'running',
  'error',
  'removed',
] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export type StatusColour = 'green' | 'warning' | 'grey' | 'red';

/** running green; start required, pending, syncing warning; error, removed red; others grey. */
export function nodeStatusColour(status: string): StatusColour {
  switch (status) {
    case 'running':
      return 'green';
    case 'start required':
    case 'pending':
    case 'syncing':
      return 'warning';
    case 'error':
    case 'removed':
      return 'red';
    default:
      return 'grey';
  }
}

/** The label is the status with a capital first letter. */
export function nodeStatusLabel(status: string): string {
  return status ? status[0].toUpperCase() + status.slice(1) : '';
}

export const REMOVED_HINT = 'This node was removed from the network. Delete it and deploy it again.';

/**
 * Network status colours. Green: PRE_ENABLED, ENABLED, ACTIVE, ACTIVE_ONGOING. Warning:
 * WATCHDOG_EXPIRED, anything containing EXITING or PENDING, WITHDRAWAL_POSSIBLE. Grey:
 * UNKNOWN, anything containing EXITED, WITHDRAWAL_DONE. Everything else red. The order
 * of the checks matters: "EXITED" must not fall into "EXITING"'s bucket and so on.
 */
export function networkStatusColour(status: string | null | undefined): StatusColour | null {
  if (!status) return null;
  const s = status.toUpperCase();
  if (['PRE_ENABLED', 'ENABLED', 'ACTIVE', 'ACTIVE_ONGOING'].includes(s)) return 'green';
  if (s === 'WATCHDOG_EXPIRED' || s === 'WITHDRAWAL_POSSIBLE' || s.includes('EXITING') || s.includes('PENDING'))
    return 'warning';
  if (s === 'UNKNOWN' || s === 'WITHDRAWAL_DONE' || s.includes('EXITED')) return 'grey';
  return 'red';
}

/** Shown as "--" when absent. */
export function networkStatusText(status: string | null | undefined): string {
  return status ? status : '--';
}

export const NETWORK_STATUS_HELP: Record<string, string> = {
  PRE_ENABLED: 'Just broadcast to the network; it will soon get rewards.',
  ENABLED: 'Running.',
  ACTIVE: 'Running.',
  WATCHDOG_EXPIRED: 'Should become enabled or active soon.',
  NEW_START_REQUIRED: 'Start it again from your local wallet.',
  UPDATE_REQUIRED: 'The node needs updating.',
  EXPIRED: 'Start the alias again and wait 15 minutes; otherwise set the node up anew with a new transaction ID.',
  REMOVE: 'Start the alias again and wait 15 minutes; otherwise set the node up anew with a new transaction ID.',
  REMOVED: 'The node must be deployed again.',
  DOWN: 'The network sees the node as down; it is re-enabled automatically. Contact support if it stays down.',
  POSE_BANNED:
    'The network banned the node for missed service; it is re-enabled automatically. Contact support if it stays banned.',
  OUTPOINT_SPENT: 'The collateral moved; the node may need to be deployed again.',
  UNKNOWN: 'Not found on the network; maybe not started yet.',
};

/**
 * `status_on_network` may be multi-word text ("Masternode successfully started ENABLED"):
 * its fourth word is the status; the full text is kept as `status_text`.
 */
export function splitNetworkStatus(raw: string | null | undefined): {
  status_on_network: string | null;
  status_text: string | null;
} {
  const text = raw?.trim();
  if (!text) return { status_on_network: null, status_text: null };
  const words = text.split(/\s+/);
  if (words.length === 1) return { status_on_network: words[0], status_text: text };
  return { status_on_network: words[3] ?? words[words.length - 1], status_text: text };
}
