import { formatUsdGrouped } from './money';
import { runwayText } from './runway';
import { coinNode } from './english';

/**
 * Every kind of notification the platform raises, in one typed map: its icon, the email
 * setting it belongs to, and how its text, link and mail subject are made from its
 * parameters. The server raises only these (src/server/notifications/raise.ts); the
 * settings page lists `emailSettings`. Money is integer micro-dollars.
 */

/** Icon names the client maps to its icon set (a small closed list, not free text). */
export type NotificationIcon =
  'check' | 'action' | 'down' | 'up' | 'warning' | 'reward' | 'shield' | 'wallet' | 'gift' | 'trash';

/**
 * The email settings (get/save_notification_settings), keyed by name. The spec names
 * the call and its fields (label, subtitle, enabled) but not the settings themselves:
 * these are ours (src/server/notifications/README.md). Security mail is not among them:
 * it is always sent (`ALWAYS_MAILED`), or whoever holds the password could turn it off.
 */
export const emailSettings = {
  node_deployed: {
    label: 'Node deployed',
    subtitle: 'When a node you ordered is set up and syncing, and when it first runs.',
    default: true,
  },
  node_action: {
    label: 'Action required',
    subtitle: 'When a node needs you to start it again or to update it.',
    default: true,
  },
  node_down: {
    label: 'Node down and back up',
    subtitle: 'When a node stops answering, and when it is back.',
    default: true,
  },
  network_status: {
    label: 'Network status',
    subtitle: 'When the network bans or removes a node, its collateral is spent or it expires.',
    default: true,
  },
  first_reward: { label: 'First reward', subtitle: 'When a node receives its first reward.', default: false },
  rewards: { label: 'Rewards', subtitle: 'Every reward a node receives.', default: false },
  payments: {
    label: 'Payments',
    subtitle: 'Deposits and card payments credited to your balance, referral bonuses.',
    default: true,
  },
  balance: {
    label: 'Balance',
    subtitle: 'When your balance runs low, and nodes destroyed for unpaid fees.',
    default: true,
  },
  maintenance: {
    label: 'Node maintenance',
    subtitle: 'When we upgrade the daemon of a node to a new version.',
    default: true,
  },
  support: {
    label: 'Support chat',
    subtitle: 'When support answers a chat message you left outside support hours.',
    default: true,
  },
} as const satisfies Record<string, { label: string; subtitle: string; default: boolean }>;

export type EmailSettingKey = keyof typeof emailSettings;
export const emailSettingKeys = Object.keys(emailSettings) as EmailSettingKey[];

export function isEmailSettingKey(key: string): key is EmailSettingKey {
  return Object.hasOwn(emailSettings, key);
}

type NodeRef = { mn_id: string; coin: string; alias?: string | null };
type Built = { message: string; link: string };

/**
 * The `setting` of kinds mailed whatever the user's settings say: the security kinds. A
 * login with a stolen password could otherwise switch off the very mails that tell the
 * owner (src/server/notifications/README.md).
 */
export const ALWAYS_MAILED = 'always';

type KindDef<P> = {
  /** The email setting that decides whether the kind is mailed, or ALWAYS_MAILED. */
  setting: EmailSettingKey | typeof ALWAYS_MAILED;
  icon: NotificationIcon;
  subject: (p: P) => string;
  build: (p: P) => Built;
};

const def = <P>(d: KindDef<P>) => d;

/** "Dash node mn-abc (my alias)", "Horizen Secure Node zen42-…". */
const nodeName = (n: NodeRef) => `${coinNode(n.coin)} ${n.mn_id}${n.alias ? ` (${n.alias})` : ''}`;
/** A node's page (its notifications point there; they are cleared when the node is destroyed). */
export const nodeLink = (n: Pick<NodeRef, 'mn_id'>, tab?: string) =>
  `/dashboard/masternode/${encodeURIComponent(n.mn_id)}${tab ? `?tab=${tab}` : ''}`;
/** The portfolio's list of destroyed validators with their slashing-protection files. */
export const REMOVED_NODES_LINK = '/dashboard/portfolio#removed-nodes';
/** "$12.50" from micro-dollars (whole cents; the ledger keeps the exact amount). */
export const usd = (micros: number) =>
  `$${(Math.round(micros / 10_000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "$0.063": a daily fee exactly (a $0.063 node must not read $0.06). */
const usdExact = (micros: number) => `$${formatUsdGrouped(micros)}`;
/** "$2.01" rounded up to the cent: an amount to add that is never a cent short. */
const usdUp = (micros: number) =>
  `$${(Math.ceil(micros / 10_000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The bad on-chain states that raise `network_status` (deployment-and-nodes.md status_on_network). */
export const badNetworkStates = ['POSE_BANNED', 'REMOVED', 'OUTPOINT_SPENT', 'EXPIRED'] as const;
export type BadNetworkState = (typeof badNetworkStates)[number];
const networkText: Record<BadNetworkState, string> = {
  POSE_BANNED: 'was PoSe banned by the network',
  REMOVED: 'was removed from the masternode list',
  OUTPOINT_SPENT: 'lost its collateral: the collateral output was spent',
  EXPIRED: 'expired on the network',
};

export const notificationKinds = {
  node_deployed: def<NodeRef>({
    setting: 'node_deployed',
    icon: 'check',
    subject: (p) => `Your ${coinNode(p.coin)} is deployed`,
    // Its daemon has just started and catches up with its chain: `node_running` follows when it runs.
    build: (p) => ({ message: `Your ${nodeName(p)} is deployed and syncing.`, link: nodeLink(p) }),
  }),
  node_running: def<NodeRef>({
    setting: 'node_deployed',
    icon: 'up',
    subject: (p) => `Your ${coinNode(p.coin)} is running`,
    build: (p) => ({ message: `Your ${nodeName(p)} is running.`, link: nodeLink(p) }),
  }),
  start_required: def<NodeRef>({
    setting: 'node_action',
    icon: 'action',
    subject: (p) => `Your ${coinNode(p.coin)} needs to be started`,
    build: (p) => ({ message: `Your ${nodeName(p)} needs to be started.`, link: nodeLink(p, 'config') }),
  }),
  new_start_required: def<NodeRef>({
    setting: 'node_action',
    icon: 'action',
    subject: (p) => `Your ${coinNode(p.coin)} needs a new start`,
    build: (p) => ({ message: `Your ${nodeName(p)} needs a new start.`, link: nodeLink(p, 'config') }),
  }),
  update_required: def<NodeRef>({
    setting: 'node_action',
    icon: 'action',
    subject: (p) => `Your ${coinNode(p.coin)} needs an update`,
    build: (p) => ({ message: `Your ${nodeName(p)} needs an update.`, link: nodeLink(p) }),
  }),
  // The owner's quick setup key could not be applied (their node runs as before).
  quick_setup_failed: def<NodeRef & { reason: string }>({
    setting: 'node_action',
    icon: 'warning',
    subject: (p) => `Your ${coinNode(p.coin)} did not take its key`,
    build: (p) => ({ message: `Quick setup of your ${nodeName(p)}: ${p.reason}`, link: nodeLink(p, 'config') }),
  }),
  node_down: def<NodeRef & { flaps?: number }>({
    setting: 'node_down',
    icon: 'down',
    subject: (p) => `Your ${coinNode(p.coin)} is down`,
    build: (p) => ({
      message: `Your ${nodeName(p)} is down.${p.flaps ? ` It went down ${p.flaps} more time${p.flaps === 1 ? '' : 's'} since the last alert.` : ''}`,
      link: nodeLink(p),
    }),
  }),
  sync_stalled: def<NodeRef>({
    setting: 'node_down',
    icon: 'warning',
    subject: (p) => `Your ${coinNode(p.coin)} stopped syncing`,
    build: (p) => ({ message: `Your ${nodeName(p)} has made no sync progress for a while.`, link: nodeLink(p) }),
  }),
  sync_resumed: def<NodeRef>({
    setting: 'node_down',
    icon: 'up',
    subject: (p) => `Your ${coinNode(p.coin)} is syncing again`,
    build: (p) => ({ message: `Your ${nodeName(p)} is syncing again.`, link: nodeLink(p) }),
  }),
  node_up: def<NodeRef>({
    setting: 'node_down',
    icon: 'up',
    subject: (p) => `Your ${coinNode(p.coin)} is back up`,
    build: (p) => ({ message: `Your ${nodeName(p)} is back up.`, link: nodeLink(p) }),
  }),
  network_status: def<NodeRef & { status: BadNetworkState }>({
    setting: 'network_status',
    icon: 'warning',
    subject: (p) => `Your ${coinNode(p.coin)}: ${p.status}`,
    build: (p) => ({ message: `Your ${nodeName(p)} ${networkText[p.status]}.`, link: nodeLink(p) }),
  }),
  first_reward: def<NodeRef & { amount: string }>({
    setting: 'first_reward',
    icon: 'reward',
    subject: (p) => `First reward for your ${coinNode(p.coin)}`,
    build: (p) => ({ message: `Your ${nodeName(p)} received its first reward: ${p.amount}.`, link: nodeLink(p) }),
  }),
  reward: def<NodeRef & { amount: string }>({
    setting: 'rewards',
    icon: 'reward',
    subject: (p) => `Reward for your ${coinNode(p.coin)}`,
    build: (p) => ({ message: `Your ${nodeName(p)} received a reward: ${p.amount}.`, link: nodeLink(p) }),
  }),
  login_new_ip: def<{ ip: string }>({
    setting: ALWAYS_MAILED,
    icon: 'shield',
    subject: () => 'New login to your Nodekeep account',
    build: (p) => ({
      message: `New login to your account from ${p.ip}. If this was not you, change your password now.`,
      link: '/dashboard/settings',
    }),
  }),
  password_changed: def<Record<string, never>>({
    setting: ALWAYS_MAILED,
    icon: 'shield',
    subject: () => 'Your Nodekeep password was changed',
    build: () => ({
      message:
        'Your password was changed and your other sessions were signed out. If this was not you, reset your password at once and contact support.',
      link: '/dashboard/settings',
    }),
  }),
  tfa_enabled: def<Record<string, never>>({
    setting: ALWAYS_MAILED,
    icon: 'shield',
    subject: () => 'Two-factor authentication is on',
    build: () => ({
      message: 'Two-factor authentication was turned on for your account.',
      link: '/dashboard/settings',
    }),
  }),
  tfa_disabled: def<Record<string, never>>({
    setting: ALWAYS_MAILED,
    icon: 'shield',
    subject: () => 'Two-factor authentication is off',
    build: () => ({
      message:
        'Two-factor authentication was turned off for your account. If this was not you, change your password now.',
      link: '/dashboard/settings',
    }),
  }),
  api_key_created: def<{ name: string }>({
    setting: ALWAYS_MAILED,
    icon: 'shield',
    subject: () => 'New API key on your Nodekeep account',
    build: (p) => ({ message: `A new API key "${p.name}" was created for your account.`, link: '/dashboard/api' }),
  }),
  // Mailed always: the owner relied on the channel that just broke, so it cannot be the way they hear of it.
  alert_channel_disabled: def<{ channel: string; failures: number; error: string }>({
    setting: ALWAYS_MAILED,
    icon: 'warning',
    subject: () => 'An alert channel was turned off',
    build: (p) => ({
      message: `Your alert channel ${p.channel} was turned off after ${p.failures} failed deliveries in a row (last error: ${p.error}). Fix it and turn it on again.`,
      link: '/dashboard/notifications',
    }),
  }),
  // The answer to a chat message left outside support hours (in hours the chat itself shows it).
  support_reply: def<{ excerpt: string }>({
    setting: 'support',
    icon: 'action',
    subject: () => 'Nodekeep support answered your message',
    build: (p) => ({ message: `Support answered your chat message: ${p.excerpt}`, link: '/dashboard?chat=open' }),
  }),
  // To operators, for the first unread message of a conversation (not every message).
  support_message: def<{ who: string; excerpt: string; conversation_id: number }>({
    setting: 'support',
    icon: 'action',
    subject: (p) => `New support message from ${p.who}`,
    build: (p) => ({
      message: `New support message from ${p.who}: ${p.excerpt}`,
      link: `/console/support?c=${p.conversation_id}`,
    }),
  }),
  deposit_pending: def<{ currency: string; amount: string }>({
    setting: 'payments',
    icon: 'wallet',
    subject: (p) => `${p.currency} deposit received`,
    build: (p) => ({
      message: `We see your deposit of ${p.amount} ${p.currency}; it is credited once confirmed.`,
      link: '/dashboard/billing',
    }),
  }),
  deposit_credited: def<{ currency: string; usd_micros: number }>({
    setting: 'payments',
    icon: 'wallet',
    subject: (p) => `${p.currency} deposit credited`,
    build: (p) => ({
      message: `Your ${p.currency} deposit of ${usd(p.usd_micros)} was credited to your balance.`,
      link: '/dashboard/billing',
    }),
  }),
  card_payment_credited: def<{ usd_micros: number }>({
    setting: 'payments',
    icon: 'wallet',
    subject: () => 'Card payment credited',
    build: (p) => ({
      message: `Your card payment of ${usd(p.usd_micros)} was credited to your balance.`,
      link: '/dashboard/billing',
    }),
  }),
  // A card payment taken back by the card's bank (a refund, a dispute). `debt_micros`: the part the balance did not cover.
  card_payment_reversed: def<{ usd_micros: number; reason: 'refund' | 'dispute'; debt_micros: number }>({
    setting: 'payments',
    icon: 'warning',
    subject: (p) => (p.reason === 'refund' ? 'Card payment refunded' : 'Card payment disputed'),
    build: (p) => ({
      message:
        (p.reason === 'refund'
          ? `Your card payment was refunded: ${usd(p.usd_micros)} was taken from your balance.`
          : `Your card payment is disputed with your bank: ${usd(p.usd_micros)} was taken from your balance.`) +
        (p.debt_micros > 0
          ? ` Your balance did not cover ${usd(p.debt_micros)}: it is owed, your next deposit pays it first, and new nodes cannot be deployed until then. Add funds on the Billing page.`
          : ''),
      link: '/dashboard/billing',
    }),
  }),
  card_dispute_won: def<{ usd_micros: number }>({
    setting: 'payments',
    icon: 'wallet',
    subject: () => 'Card dispute closed',
    build: (p) => ({
      message: `The dispute of your card payment is closed: ${usd(p.usd_micros)} is back in your account.`,
      link: '/dashboard/billing',
    }),
  }),
  referral_bonus: def<{ usd_micros: number }>({
    setting: 'payments',
    icon: 'gift',
    subject: () => 'You earned a referral bonus',
    build: (p) => ({ message: `You earned a referral bonus of ${usd(p.usd_micros)}.`, link: '/dashboard/affiliate' }),
  }),
  // `hours_left` and `daily_micros` since the runway (older rows have days_left only);
  // `at_risk` and `keep_micros` when the balance does not cover the next charge.
  low_balance: def<{
    balance_micros: number;
    days_left: number;
    hours_left?: number;
    daily_micros?: number;
    at_risk?: string[];
    keep_micros?: number;
  }>({
    setting: 'balance',
    icon: 'warning',
    subject: (p) =>
      p.at_risk?.length
        ? `Add funds before 00:00 UTC or ${p.at_risk.length === 1 ? 'a node' : `${p.at_risk.length} nodes`} will be destroyed`
        : 'Your Nodekeep balance is running low',
    build: (p) => ({
      message: p.at_risk?.length
        ? `Your balance of ${usd(p.balance_micros)} does not cover the next daily charge of ${usdExact(p.daily_micros ?? 0)} at 00:00 UTC. Add at least ${usdUp(p.keep_micros ?? 0)} before then, or ${p.at_risk.length === 1 ? 'this node' : `these ${p.at_risk.length} nodes`} will be destroyed: ${p.at_risk.join(', ')}.`
        : p.hours_left !== undefined && p.daily_micros !== undefined
          ? `Your balance is ${usd(p.balance_micros)}: enough for ${runwayText(p.hours_left)} of hosting at ${usdExact(p.daily_micros)} a day. Add funds to keep your nodes running.`
          : `Your balance is ${usd(p.balance_micros)}: enough for ${p.days_left < 1 ? 'less than a day' : `about ${p.days_left} day${p.days_left === 1 ? '' : 's'}`} of hosting. Add funds to keep your nodes running.`,
      link: '/dashboard/billing',
    }),
  }),
  // A validator's slashing-protection file is kept 30 days (nodes/exit-files.ts): the
  // owner needs it before the key runs anywhere else, so the notice leads to it.
  node_destroyed_unpaid: def<NodeRef & { validator?: boolean }>({
    setting: 'balance',
    icon: 'trash',
    subject: (p) => `Your ${coinNode(p.coin)} was destroyed for unpaid fees`,
    build: (p) =>
      p.validator
        ? {
            message: `Your ${nodeName(p)} was destroyed because its hosting fees were not paid. Its slashing-protection file is kept for you for 30 days under Removed nodes in your portfolio: import it into the client that runs this key next.`,
            link: REMOVED_NODES_LINK,
          }
        : {
            message: `Your ${nodeName(p)} was destroyed because its hosting fees were not paid.`,
            link: '/dashboard/billing',
          },
  }),
  // Operators only (raised to users with the operator role by the fleet's host check).
  // Always mailed: a filling disk stops every node on the host, whatever the settings.
  daemon_upgraded: def<NodeRef & { version: string }>({
    setting: 'maintenance',
    icon: 'up',
    subject: (p) => `Your ${nodeName(p)} was upgraded`,
    build: (p) => ({
      message: `Your ${nodeName(p)} now runs daemon version ${p.version}, as its network requires.`,
      link: nodeLink(p),
    }),
  }),
  // To operators: a customer's card payment was refunded, disputed, or a dispute closed.
  card_reversal_alert: def<{
    who: string;
    event: 'refund' | 'dispute' | 'dispute_won' | 'dispute_lost';
    usd_micros: number;
    debt_micros: number;
  }>({
    setting: 'payments',
    icon: 'warning',
    subject: (p) => `Card ${p.event === 'refund' ? 'refund' : 'dispute'} for ${p.who}`,
    build: (p) => ({
      message: `${p.who}: ${
        p.event === 'refund'
          ? `a card payment was refunded, ${usd(p.usd_micros)} taken back`
          : p.event === 'dispute'
            ? `a card payment is disputed, ${usd(p.usd_micros)} taken back`
            : p.event === 'dispute_won'
              ? `a card dispute was won, ${usd(p.usd_micros)} given back`
              : 'a card dispute was lost, the amount stays taken'
      }.${p.debt_micros > 0 ? ` The customer owes ${usd(p.debt_micros)}.` : ''}`,
      link: '/console/money',
    }),
  }),
  // To operators: a rollout stopped on a failed batch (its nodes are back on the old version).
  rollout_halted: def<{ coin: string; version: string; reason: string }>({
    setting: ALWAYS_MAILED,
    icon: 'warning',
    subject: (p) => `The ${p.coin} upgrade to ${p.version} stopped`,
    build: (p) => ({
      message: `The ${p.coin} daemon upgrade to ${p.version} stopped: ${p.reason} The batch was rolled back.`,
      link: '/console/upgrades',
    }),
  }),
  // To operators: the day's charge did not complete by 01:00 UTC (later days wait for it).
  daily_charge_late: def<{ day: string; reason: string }>({
    setting: ALWAYS_MAILED,
    icon: 'warning',
    subject: (p) => `The daily charge for ${p.day} is not completed`,
    build: (p) => ({
      message: `The daily charge for ${p.day} did not complete by 01:00 UTC: ${p.reason} Nodes are not charged until it completes, and every later day waits for it. The server log and /readyz say more.`,
      link: '/console/',
    }),
  }),
  host_disk_low: def<{ host: string; free_gb: number; total_gb: number; threshold_gb: number }>({
    setting: ALWAYS_MAILED,
    icon: 'warning',
    subject: (p) => `Host ${p.host} is running out of disk`,
    build: (p) => ({
      message: `Host ${p.host} has ${p.free_gb} GB of ${p.total_gb} GB free, below the ${p.threshold_gb} GB threshold. It takes no new nodes until space is freed.`,
      link: '/console/fleet',
    }),
  }),
} as const;

export type NotificationKind = keyof typeof notificationKinds;
export const notificationKindNames = Object.keys(notificationKinds) as NotificationKind[];
export type NotificationParams<K extends NotificationKind> =
  (typeof notificationKinds)[K] extends KindDef<infer P> ? P : never;

export function isNotificationKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(notificationKinds, kind);
}

/** The text, link, icon and subject of one notification (the kind's typed builder). */
export function renderNotification<K extends NotificationKind>(kind: K, params: NotificationParams<K>) {
  // TypeScript cannot correlate `kind` with its own entry's parameter type; `params` is typed by K above.
  const d = notificationKinds[kind] as unknown as KindDef<NotificationParams<K>>;
  return { ...d.build(params), icon: d.icon, subject: d.subject(params), setting: d.setting };
}
