/**
 * The node page's restart and log rules, one source for the server and the page.
 */

/** An owner may restart a node's daemon once in this long. */
export const RESTART_INTERVAL_MS = 10 * 60_000;
/**
 * How long the operator's CLI and console wait for the control loop's answer to a restart:
 * the loop picks a request up within a second, a real daemon may take seconds more to answer.
 */
export const RESTART_WAIT_MS = 30_000;

/** How many of the daemon's last log lines the node page shows. */
export const NODE_LOG_LINES = 100;

/** How many days the uptime chart covers, today included. */
export const UPTIME_DAYS = 30;

/** What replaces a secret in a log line. */
export const MASKED = '[hidden]';

export const restartTooSoon = (minutes: number) =>
  `This node was restarted less than 10 minutes ago. You can restart it again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** What the node's events list says of each kind (node_events.kind). */
export const NODE_EVENT_TEXT = {
  restart_requested: 'Restart asked for',
  restarted: 'Daemon restarted',
  restart_failed: 'Restart failed',
} as const;
export type NodeEventKind = keyof typeof NODE_EVENT_TEXT;
export const NODE_EVENT_KINDS = Object.keys(NODE_EVENT_TEXT) as [NodeEventKind, ...NodeEventKind[]];
